// Command doccapture regenerates the captured outputs in README.md and
// docs/*.md: every block of the form
//
//	<!-- capture: go test -run='^$' -bench=. ./examples/seed002 | width=250 | grep=^Benchmark -->
//	```text
//	…
//	```
//	<!-- /capture -->
//
// is rewritten with the output of its command, run with bash -c from the
// module root. The new block starts with one line naming when and where it
// was captured:
//
//	# 2026-12-01 10:04 UTC · go1.26.8 linux/amd64 · Intel(R) Xeon(R) Processor · 2 CPUs
//
// Run it from the module root:
//
//	go run ./internal/cmd/doccapture          # every block not marked slow
//	go run ./internal/cmd/doccapture -slow    # every block, slow ones included
//	go run ./internal/cmd/doccapture -check   # list the blocks, run nothing
//	go run ./internal/cmd/doccapture -only groundtruth -slow
//
// # Options
//
// Options follow the command, each after " | ", and apply in this order:
//
//	grep=REGEX   keep only the lines matching REGEX (Go syntax)
//	lines=A-B    keep lines A to B (1-based, inclusive; after grep)
//	width=N      cut lines longer than N characters, ending them with …
//	markdown     the output is markdown: write it without a ```text fence
//	slow         run only with -slow
//	html=FILE    the command writes the page FILE; the block becomes a
//	png=FILE     screenshot of it by headless Chromium (internal/browser),
//	             written to the png FILE (relative to the module root) with
//	             at most 256 colours, and linked from the markdown file
//	size=WxH     the screenshot's window in CSS pixels (default 1100x1400)
//	alt=TEXT     the image's alternative text
//
// A screenshot block's body is the header line in backquotes, an empty
// line and the image:
//
//	<!-- capture: go test -run='^$' -bench=. ./examples/seed001 -benchkit.html=/tmp/s.html | html=/tmp/s.html | png=docs/img/seed001.png -->
//	`# 2026-12-01 10:04 UTC · go1.26.8 linux/amd64 · …`
//
//	![screenshot of /tmp/s.html](img/seed001.png)
//	<!-- /capture -->
//
// A trailing " | x" is a shell pipe unless x is one of these options, so
// write alternations inside a regular expression without spaces around |.
//
// A command that fails (non-zero exit, or the deadline of -timeout, 10
// minutes by default) leaves its block unchanged; doccapture prints the
// command's output and exits 1 after trying the others. Identical commands
// run once per invocation. A file is rewritten only when a block changed.
package main
