package main

import (
	"bytes"
	"cmp"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"os"
	"slices"
)

// maxColours is the size of a screenshot's palette.
const maxColours = 256

// swatch is one distinct colour of an image and how many pixels have it.
type swatch struct {
	c color.RGBA
	n int
}

// shrinkPNG rewrites the PNG at path with at most maxColours colours and
// the best compression: a screenshot of text and flat plots loses
// nothing visible and a good half of its bytes.
func shrinkPNG(path string) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		return fmt.Errorf("doccapture: %s: %v", path, err)
	}
	var buf bytes.Buffer
	enc := png.Encoder{CompressionLevel: png.BestCompression}
	if err := enc.Encode(&buf, quantize(img)); err != nil {
		return err
	}
	return os.WriteFile(path, buf.Bytes(), 0o644)
}

// quantize returns img in at most maxColours colours: its own when it has
// no more, else the weighted means of the boxes of a median cut over its
// distinct colours (the box with the widest channel is halved at its
// pixel-weighted median until there are maxColours), each pixel mapped to
// the nearest. Without dithering, so that text stays crisp; a rare
// colour far from the rest (a verdict's green) keeps a box of its own.
func quantize(img image.Image) *image.Paletted {
	b := img.Bounds()
	counts := map[color.RGBA]int{}
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			counts[color.RGBAModel.Convert(img.At(x, y)).(color.RGBA)]++
		}
	}
	all := make([]swatch, 0, len(counts))
	for c, n := range counts {
		all = append(all, swatch{c, n})
	}
	slices.SortFunc(all, func(a, b swatch) int { return cmp.Compare(rgbaKey(a.c), rgbaKey(b.c)) })
	boxes := [][]swatch{all}
	for len(boxes) < maxColours {
		i := widestBox(boxes)
		if i < 0 {
			break
		}
		lo, hi := splitBox(boxes[i])
		boxes[i] = lo
		boxes = append(boxes, hi)
	}
	pal := make(color.Palette, len(boxes))
	for i, box := range boxes {
		pal[i] = meanColour(box)
	}
	index := make(map[color.RGBA]uint8, len(all))
	for _, s := range all {
		index[s.c] = uint8(pal.Index(s.c))
	}
	out := image.NewPaletted(b, pal)
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			out.SetColorIndex(x, y, index[color.RGBAModel.Convert(img.At(x, y)).(color.RGBA)])
		}
	}
	return out
}

// rgbaKey orders colours for a deterministic palette.
func rgbaKey(c color.RGBA) uint32 {
	return uint32(c.R)<<24 | uint32(c.G)<<16 | uint32(c.B)<<8 | uint32(c.A)
}

// channel returns channel k (0 red, 1 green, 2 blue, 3 alpha) of c.
func channel(c color.RGBA, k int) uint8 { return [4]uint8{c.R, c.G, c.B, c.A}[k] }

// widestChannel returns the channel with the widest range in box, and
// that range.
func widestChannel(box []swatch) (k int, width int) {
	for ch := range 4 {
		lo, hi := 255, 0
		for _, s := range box {
			v := int(channel(s.c, ch))
			lo, hi = min(lo, v), max(hi, v)
		}
		if hi-lo > width {
			k, width = ch, hi-lo
		}
	}
	return k, width
}

// widestBox returns the index of the box of more than one colour with
// the widest channel, or -1 when every box is one colour.
func widestBox(boxes [][]swatch) int {
	best, bestWidth := -1, 0
	for i, box := range boxes {
		if len(box) < 2 {
			continue
		}
		if _, w := widestChannel(box); w > bestWidth {
			best, bestWidth = i, w
		}
	}
	return best
}

// splitBox halves box along its widest channel at the pixel-weighted
// median; both halves hold at least one colour.
func splitBox(box []swatch) (lo, hi []swatch) {
	k, _ := widestChannel(box)
	s := slices.Clone(box)
	slices.SortStableFunc(s, func(a, b swatch) int { return cmp.Compare(channel(a.c, k), channel(b.c, k)) })
	total := 0
	for _, sw := range s {
		total += sw.n
	}
	acc, cut := 0, 1
	for i, sw := range s[:len(s)-1] {
		acc += sw.n
		cut = i + 1
		if 2*acc >= total {
			break
		}
	}
	return s[:cut], s[cut:]
}

// meanColour is the pixel-weighted mean colour of box.
func meanColour(box []swatch) color.RGBA {
	var sum [4]int
	total := 0
	for _, s := range box {
		for k := range 4 {
			sum[k] += int(channel(s.c, k)) * s.n
		}
		total += s.n
	}
	avg := func(k int) uint8 { return uint8((sum[k] + total/2) / total) }
	return color.RGBA{avg(0), avg(1), avg(2), avg(3)}
}
