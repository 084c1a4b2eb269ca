package main

import (
	"strings"
	"testing"
)

const doc = "# Title\n" +
	"\n" +
	"<!-- capture: go test ./x | grep -v ok | width=10 | grep=^B -->\n" +
	"```text\n" +
	"old output\n" +
	"```\n" +
	"<!-- /capture -->\n" +
	"between\n" +
	"<!-- capture: go run ./tool | slow | markdown | lines=2-3 -->\n" +
	"| a | b |\n" +
	"<!-- /capture -->\n" +
	"    <!-- capture: indented example -->\n" +
	"end\n"

func TestParseBlocks(t *testing.T) {
	blocks, err := parseBlocks(strings.Split(doc, "\n"))
	if err != nil {
		t.Fatal(err)
	}
	if len(blocks) != 2 {
		t.Fatalf("got %d blocks, want 2", len(blocks))
	}
	b0, b1 := blocks[0], blocks[1]
	if b0.command != "go test ./x | grep -v ok" || b0.opts.width != 10 || b0.opts.grep == nil || b0.opts.slow {
		t.Errorf("block 0: got %q %+v, want the shell pipe kept in the command, width 10, grep set", b0.command, b0.opts)
	}
	if b0.start != 2 || b0.end != 6 {
		t.Errorf("block 0: got lines %d-%d, want 2-6", b0.start, b0.end)
	}
	if b1.command != "go run ./tool" || !b1.opts.slow || !b1.opts.markdown || b1.opts.from != 2 || b1.opts.to != 3 {
		t.Errorf("block 1: got %q %+v, want slow, markdown, lines 2-3", b1.command, b1.opts)
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		name, doc, want string
	}{
		{"unclosed", "<!-- capture: ls -->\n```text\n", "line 1: capture block without"},
		{"stray end", "text\n<!-- /capture -->\n", "line 2: <!-- /capture --> without"},
		{"nested", "<!-- capture: ls -->\n<!-- capture: ls -->\n", "line 2: capture block inside"},
		{"bad width", "<!-- capture: ls | width=x -->\n<!-- /capture -->\n", "width=x"},
		{"bad lines", "<!-- capture: ls | lines=5-2 -->\n<!-- /capture -->\n", "lines=5-2"},
		{"bad grep", "<!-- capture: ls | grep=( -->\n<!-- /capture -->\n", "grep=("},
		{"no command", "<!-- capture:  -->\n<!-- /capture -->\n", "without a command"},
		{"html without png", "<!-- capture: ls | html=/tmp/p.html -->\n<!-- /capture -->\n", "html= and png= go together"},
		{"png not png", "<!-- capture: ls | html=/tmp/p.html | png=docs/img/p.jpg -->\n<!-- /capture -->\n", "png=docs/img/p.jpg"},
		{"bad size", "<!-- capture: ls | html=/tmp/p.html | png=p.png | size=10x10 -->\n<!-- /capture -->\n", "size=10x10"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := parseBlocks(strings.Split(tt.doc, "\n"))
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("got error %v, want one containing %q", err, tt.want)
			}
		})
	}
}

func TestFilter(t *testing.T) {
	out := "Benchmark1 short\nnoise\nBenchmark2 a line longer than ten\nBenchmark3\n"
	blocks, err := parseBlocks(strings.Split(doc, "\n"))
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Join(blocks[0].opts.filter(out), "\n")
	want := "Benchmark…\nBenchmark…\nBenchmark3"
	if got != want {
		t.Errorf("grep=^B, width=10: got\n%s\nwant\n%s", got, want)
	}
	got = strings.Join(blocks[1].opts.filter("1\n2\n3\n4\n"), "\n")
	if got != "2\n3" {
		t.Errorf("lines=2-3: got %q, want %q", got, "2\n3")
	}
	got = strings.Join(blocks[1].opts.filter("1\n"), "\n")
	if got != "" {
		t.Errorf("lines=2-3 of one line: got %q, want nothing", got)
	}
}

func TestRewrite(t *testing.T) {
	lines := strings.Split(doc, "\n")
	blocks, err := parseBlocks(lines)
	if err != nil {
		t.Fatal(err)
	}
	bodies := [][]string{
		body("# HEADER", blocks[0].opts, []string{"new output"}),
		nil, // a failed or skipped block stays as it is
	}
	got := strings.Join(rewrite(lines, blocks, bodies), "\n")
	want := strings.Replace(doc, "```text\nold output\n```", "```text\n# HEADER\nnew output\n```", 1)
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	md := body("# HEADER", blocks[1].opts, []string{"| a |"})
	if strings.Join(md, "\n") != "`# HEADER`\n\n| a |" {
		t.Errorf("markdown body: got %q", md)
	}
}

func TestCut(t *testing.T) {
	if got := cut("µµµµ", 3); got != "µµ…" {
		t.Errorf("cut counts characters, not bytes: got %q, want %q", got, "µµ…")
	}
	if got := cut("abc", 3); got != "abc" {
		t.Errorf("a line of exactly the width is kept: got %q", got)
	}
}

func TestCPUModel(t *testing.T) {
	if got := cpuModel("/nonexistent/cpuinfo"); got != "unknown" {
		t.Errorf("unreadable file: got %q, want unknown", got)
	}
}

func TestParseScreenshot(t *testing.T) {
	blocks, err := parseBlocks([]string{"<!-- capture: go test ./x -args -benchkit.html=/tmp/r.html | html=/tmp/r.html | png=docs/img/r.png | size=1000x1200 | alt=the report -->", "<!-- /capture -->"})
	if err != nil {
		t.Fatal(err)
	}
	o := blocks[0].opts
	if blocks[0].command != "go test ./x -args -benchkit.html=/tmp/r.html" || o.html != "/tmp/r.html" || o.png != "docs/img/r.png" || o.size != [2]int{1000, 1200} || o.alt != "the report" {
		t.Errorf("got %q %+v", blocks[0].command, o)
	}
	if got := imageBody("# h", o, "img/r.png"); strings.Join(got, "\n") != "`# h`\n\n![the report](img/r.png)" {
		t.Errorf("image body: got %q", got)
	}
}
