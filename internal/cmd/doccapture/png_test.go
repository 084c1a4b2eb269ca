package main

import (
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/benchkit/go-benchkit/internal/browser"
)

// TestQuantizeFewColours: an image of at most maxColours colours keeps
// every one exactly.
func TestQuantizeFewColours(t *testing.T) {
	img := image.NewRGBA(image.Rect(0, 0, 16, 16))
	for i := range 256 {
		img.Set(i%16, i/16, color.RGBA{uint8(i), uint8(255 - i), 7, 255})
	}
	q := quantize(img)
	for i := range 256 {
		if got, want := q.At(i%16, i/16), img.At(i%16, i/16); got != want {
			t.Fatalf("pixel %d: got %v, want %v", i, got, want)
		}
	}
}

// TestQuantizeKeepsARareColour: with more than maxColours greys, the
// palette holds maxColours colours and a single green pixel stays green.
func TestQuantizeKeepsARareColour(t *testing.T) {
	img := image.NewRGBA(image.Rect(0, 0, 100, 100))
	for y := range 100 {
		for x := range 100 {
			v := uint8((x*100 + y) % 251)
			img.Set(x, y, color.RGBA{v, v, uint8((x + y) % 7), 255})
		}
	}
	green := color.RGBA{26, 127, 55, 255}
	img.Set(50, 50, green)
	q := quantize(img)
	if len(q.Palette) > maxColours {
		t.Fatalf("%d colours, want at most %d", len(q.Palette), maxColours)
	}
	r, g, b, _ := q.At(50, 50).RGBA()
	if !(g>>8 > r>>8+50 && g>>8 > b>>8+30) {
		t.Errorf("the green pixel became %v", q.At(50, 50))
	}
}

// TestScreenshotBlock: a block with html= and png= gets the image of the
// page, shrunk to a palette, linked from the markdown file's directory.
func TestScreenshotBlock(t *testing.T) {
	if browser.Find() == "" {
		t.Skip("no chromium on PATH: the screenshot was not made (apt-get install chromium)")
	}
	dir := t.TempDir()
	page := filepath.Join(dir, "p.html")
	if err := os.WriteFile(page, []byte(`<!DOCTYPE html><title>p</title><p style="color:#1a7f37">faster</p>`), 0o644); err != nil {
		t.Fatal(err)
	}
	o := options{html: page, png: filepath.Join(dir, "docs", "img", "p.png"), alt: "the page", size: [2]int{300, 200}}
	lines, err := screenshotBody(filepath.Join(dir, "docs", "x.md"), o)
	if err != nil {
		t.Fatal(err)
	}
	if len(lines) != 3 || !strings.HasPrefix(lines[0], "`# ") || lines[2] != "![the page](img/p.png)" {
		t.Errorf("got %q", lines)
	}
	f, err := os.Open(o.png)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := img.(*image.Paletted); !ok || img.Bounds().Dx() != 300 || img.Bounds().Dy() != 200 {
		t.Errorf("got a %T of %v, want a paletted 300×200", img, img.Bounds())
	}
}
