package main

import (
	"fmt"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
)

const (
	startPrefix = "<!-- capture: "
	startSuffix = " -->"
	endMarker   = "<!-- /capture -->"
)

// options are the settings of one block; zero values mean "not set".
type options struct {
	grep     *regexp.Regexp
	from, to int // lines=A-B, 1-based inclusive; 0 when not set
	width    int
	markdown bool
	slow     bool
	// html is the page the command wrote and png the screenshot of it to
	// write (relative to the module root), in a window of size (default
	// defaultShot), with alt as the image's text.
	html, png, alt string
	size           [2]int
}

// defaultShot is the window, in CSS pixels, of a screenshot without
// size=.
var defaultShot = [2]int{1100, 1400}

// block is one capture block of a markdown file: lines[start] is its start
// marker and lines[end] its end marker.
type block struct {
	command    string
	opts       options
	start, end int
}

// parseBlocks finds the capture blocks in the lines of a markdown file.
// Markers count only at the start of a line, so an indented example of a
// block is left alone. It reports a start marker without an end marker, an end marker without a
// start marker, a nested start marker and an invalid option, each with its
// 1-based line number.
func parseBlocks(lines []string) ([]block, error) {
	var blocks []block
	open := -1
	var cur block
	for i, line := range lines {
		t := strings.TrimRight(line, " \t\r")
		switch {
		case strings.HasPrefix(t, startPrefix) && strings.HasSuffix(t, startSuffix):
			if open >= 0 {
				return nil, fmt.Errorf("line %d: capture block inside the block opened at line %d", i+1, open+1)
			}
			spec := strings.TrimSuffix(strings.TrimPrefix(t, startPrefix), startSuffix)
			cmd, opts, err := parseSpec(spec)
			if err != nil {
				return nil, fmt.Errorf("line %d: %v", i+1, err)
			}
			open, cur = i, block{command: cmd, opts: opts, start: i}
		case t == endMarker:
			if open < 0 {
				return nil, fmt.Errorf("line %d: %s without a capture block", i+1, endMarker)
			}
			cur.end = i
			blocks = append(blocks, cur)
			open = -1
		}
	}
	if open >= 0 {
		return nil, fmt.Errorf("line %d: capture block without %s", open+1, endMarker)
	}
	return blocks, nil
}

// parseSpec splits "cmd | opt | opt" into the command and its options,
// taking " | x" segments from the end for as long as x is an option.
func parseSpec(spec string) (string, options, error) {
	var o options
	cmd := strings.TrimSpace(spec)
	for {
		i := strings.LastIndex(cmd, " | ")
		if i < 0 {
			break
		}
		ok, err := o.set(strings.TrimSpace(cmd[i+3:]))
		if err != nil {
			return "", o, err
		}
		if !ok {
			break
		}
		cmd = strings.TrimSpace(cmd[:i])
	}
	if cmd == "" {
		return "", o, fmt.Errorf("capture block without a command")
	}
	if (o.html == "") != (o.png == "") {
		return "", o, fmt.Errorf("html= and png= go together: the page the command writes and the screenshot to make of it")
	}
	return cmd, o, nil
}

// set applies one option. It returns false, and no error, when s is not an
// option at all (a shell pipe), and an error when s is a known option with
// an invalid value.
func (o *options) set(s string) (bool, error) {
	key, val, hasVal := strings.Cut(s, "=")
	switch {
	case s == "slow":
		o.slow = true
	case s == "markdown":
		o.markdown = true
	case hasVal && key == "grep":
		re, err := regexp.Compile(val)
		if err != nil {
			return true, fmt.Errorf("grep=%s: %v", val, err)
		}
		o.grep = re
	case hasVal && key == "width":
		n, err := strconv.Atoi(val)
		if err != nil || n < 2 {
			return true, fmt.Errorf("width=%s: want a number of characters ≥ 2, like width=250", val)
		}
		o.width = n
	case hasVal && key == "lines":
		return true, o.setLines(val)
	case hasVal && key == "html":
		o.html = val
	case hasVal && key == "png":
		if !strings.HasSuffix(val, ".png") {
			return true, fmt.Errorf("png=%s: want a file ending in .png, like png=docs/img/seed001.png", val)
		}
		o.png = val
	case hasVal && key == "alt":
		o.alt = val
	case hasVal && key == "size":
		return true, o.setSize(val)
	default:
		return false, nil
	}
	return true, nil
}

// setLines parses the A-B of lines=A-B.
func (o *options) setLines(val string) error {
	a, b, ok := strings.Cut(val, "-")
	from, errA := strconv.Atoi(a)
	to, errB := strconv.Atoi(b)
	if !ok || errA != nil || errB != nil || from < 1 || to < from {
		return fmt.Errorf("lines=%s: want A-B with 1 ≤ A ≤ B, like lines=1-40", val)
	}
	o.from, o.to = from, to
	return nil
}

// setSize parses the WxH of size=WxH.
func (o *options) setSize(val string) error {
	w, h, ok := strings.Cut(val, "x")
	width, errW := strconv.Atoi(w)
	height, errH := strconv.Atoi(h)
	if !ok || errW != nil || errH != nil || width < 100 || height < 100 {
		return fmt.Errorf("size=%s: want WxH in pixels, each at least 100, like size=1100x1400", val)
	}
	o.size = [2]int{width, height}
	return nil
}

// filter applies grep, lines and width, in that order, to a command's
// output and returns the lines to write.
func (o options) filter(output string) []string {
	lines := strings.Split(strings.TrimRight(output, "\n"), "\n")
	if o.grep != nil {
		var kept []string
		for _, l := range lines {
			if o.grep.MatchString(l) {
				kept = append(kept, l)
			}
		}
		lines = kept
	}
	if o.from > 0 {
		lines = lines[min(o.from-1, len(lines)):min(o.to, len(lines))]
	}
	if o.width > 0 {
		for i, l := range lines {
			lines[i] = cut(l, o.width)
		}
	}
	return lines
}

// cut shortens l to width characters, the last of them "…", when it is
// longer.
func cut(l string, width int) string {
	r := []rune(l)
	if len(r) <= width {
		return l
	}
	return string(r[:width-1]) + "…"
}

// body is what replaces the lines between a block's markers: a ```text
// fence holding the header and the output lines, or, for markdown output,
// the header in backquotes, an empty line and the output.
func body(header string, o options, out []string) []string {
	if o.markdown {
		return append([]string{"`" + header + "`", ""}, out...)
	}
	res := append([]string{"```text", header}, out...)
	return append(res, "```")
}

// imageBody is what replaces the lines between a screenshot block's
// markers: the header in backquotes, an empty line and the image, linked
// at rel (the PNG's path from the markdown file's directory).
func imageBody(header string, o options, rel string) []string {
	alt := o.alt
	if alt == "" {
		alt = "screenshot of " + o.html
	}
	return []string{"`" + header + "`", "", "![" + alt + "](" + filepath.ToSlash(rel) + ")"}
}

// rewrite returns lines with the body of each block in bodies replaced;
// bodies is indexed like blocks, and a nil entry leaves that block as it
// is.
func rewrite(lines []string, blocks []block, bodies [][]string) []string {
	var out []string
	next := 0
	for i, b := range blocks {
		out = append(out, lines[next:b.start+1]...)
		if bodies[i] == nil {
			out = append(out, lines[b.start+1:b.end]...)
		} else {
			out = append(out, bodies[i]...)
		}
		next = b.end
	}
	return append(out, lines[next:]...)
}
