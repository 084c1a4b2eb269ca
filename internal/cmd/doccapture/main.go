package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"time"

	"github.com/benchkit/go-benchkit/internal/browser"
	"github.com/benchkit/go-benchkit/internal/env"
)

// config is what the flags set.
type config struct {
	slow    bool
	check   bool
	only    *regexp.Regexp
	timeout time.Duration
}

func main() {
	var c config
	only := flag.String("only", "", "run only the blocks whose command matches this regular expression")
	flag.BoolVar(&c.slow, "slow", false, "also run the blocks marked slow")
	flag.BoolVar(&c.check, "check", false, "list the blocks and check their syntax; run nothing")
	flag.DurationVar(&c.timeout, "timeout", 10*time.Minute, "deadline of one command")
	flag.Parse()
	re, err := regexp.Compile(*only)
	if err != nil {
		fmt.Fprintf(os.Stderr, "doccapture: -only %q: %v\n", *only, err)
		os.Exit(2)
	}
	c.only = re
	if err := run(os.Stdout, c); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

// run processes README.md and docs/*.md in the current directory.
func run(w io.Writer, c config) error {
	files, err := markdownFiles()
	if err != nil {
		return err
	}
	cache := map[string]string{}
	var failed []string
	for _, f := range files {
		fails, err := processFile(w, f, c, cache)
		if err != nil {
			return err
		}
		failed = append(failed, fails...)
	}
	if len(failed) > 0 {
		return fmt.Errorf("doccapture: %d command(s) failed, their blocks are unchanged:\n%s", len(failed), strings.Join(failed, "\n"))
	}
	return nil
}

// markdownFiles lists README.md and docs/*.md; README.md must exist, so
// that running from another directory fails instead of doing nothing.
func markdownFiles() ([]string, error) {
	if _, err := os.Stat("README.md"); err != nil {
		return nil, fmt.Errorf("doccapture: run it from the module root (no README.md here): %v", err)
	}
	docs, err := filepath.Glob(filepath.Join("docs", "*.md"))
	if err != nil {
		return nil, err
	}
	return append([]string{"README.md"}, docs...), nil
}

// processFile captures the blocks of one file and rewrites it when a block
// changed. It returns a description of each failed command.
func processFile(w io.Writer, name string, c config, cache map[string]string) ([]string, error) {
	data, err := os.ReadFile(name)
	if err != nil {
		return nil, err
	}
	lines := strings.Split(string(data), "\n")
	blocks, err := parseBlocks(lines)
	if err != nil {
		return nil, fmt.Errorf("doccapture: %s: %v", name, err)
	}
	bodies := make([][]string, len(blocks))
	var failed []string
	changed := false
	for i, b := range blocks {
		where := fmt.Sprintf("%s:%d", name, b.start+1)
		if c.check || (b.opts.slow && !c.slow) || !c.only.MatchString(b.command) {
			fmt.Fprintf(w, "%s\t%s\t%s\n", where, skipReason(b, c), b.command)
			continue
		}
		fmt.Fprintf(w, "%s\trunning\t%s\n", where, b.command)
		out, err := captured(b.command, c.timeout, cache)
		if err != nil {
			failed = append(failed, fmt.Sprintf("%s: %s: %v\n%s", where, b.command, err, out))
			continue
		}
		if bodies[i], err = blockBody(name, b.opts, out); err != nil {
			failed = append(failed, fmt.Sprintf("%s: %s: %v", where, b.command, err))
			continue
		}
		changed = true
	}
	if !changed {
		return failed, nil
	}
	return failed, os.WriteFile(name, []byte(strings.Join(rewrite(lines, blocks, bodies), "\n")), 0o644)
}

// skipReason says why a block was listed and not run.
func skipReason(b block, c config) string {
	switch {
	case c.check && b.opts.slow:
		return "slow"
	case c.check:
		return "fast"
	case b.opts.slow && !c.slow:
		return "skipped (slow: use -slow)"
	default:
		return "skipped (-only)"
	}
}

// captured runs command once per invocation, caching its output.
func captured(command string, timeout time.Duration, cache map[string]string) (string, error) {
	if out, ok := cache[command]; ok {
		return out, nil
	}
	out, err := runCommand(command, timeout)
	if err == nil {
		cache[command] = out
	}
	return out, err
}

// runCommand runs command with bash -c in the current directory and
// returns its standard output and standard error, interleaved.
func runCommand(command string, timeout time.Duration) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, "bash", "-c", command)
	var buf bytes.Buffer
	cmd.Stdout, cmd.Stderr = &buf, &buf
	err := cmd.Run()
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		err = fmt.Errorf("no result within %v", timeout)
	}
	return buf.String(), err
}

// header is the first line of a captured block: when and where, the CPU
// named as go test and the report name it.
func header() string {
	cpu := strings.TrimSpace(env.GoTestCPU())
	if cpu == "" {
		cpu = cpuModel("/proc/cpuinfo")
	}
	return fmt.Sprintf("# %s · %s %s/%s · %s · %d CPUs",
		time.Now().UTC().Format("2006-01-02 15:04 UTC"), runtime.Version(),
		runtime.GOOS, runtime.GOARCH, cpu, runtime.NumCPU())
}

// cpuModel reads the first "model name" of a /proc/cpuinfo file, or says
// "unknown".
func cpuModel(path string) string {
	f, err := os.Open(path)
	if err != nil {
		return "unknown"
	}
	defer f.Close()
	s := bufio.NewScanner(f)
	for s.Scan() {
		k, v, ok := strings.Cut(s.Text(), ":")
		if ok && strings.TrimSpace(k) == "model name" {
			return strings.TrimSpace(v)
		}
	}
	return "unknown"
}

// blockBody is a block's new body in the markdown file md: the command's
// output filtered by o, or, with png=, the screenshot of o.html.
func blockBody(md string, o options, out string) ([]string, error) {
	if o.png == "" {
		return body(header(), o, o.filter(out)), nil
	}
	return screenshotBody(md, o)
}

// screenshotBody renders the page o.html with headless Chromium into
// o.png, shrinks it ([shrinkPNG]), and returns the block's body for the
// markdown file md.
func screenshotBody(md string, o options) ([]string, error) {
	exe := browser.Find()
	if exe == "" {
		return nil, fmt.Errorf("no %s on PATH to make the screenshot (apt-get install chromium)", strings.Join(browser.Names, ", "))
	}
	page, err := filepath.Abs(o.html)
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(filepath.Dir(o.png), 0o755); err != nil {
		return nil, err
	}
	size := o.size
	if size == [2]int{} {
		size = defaultShot
	}
	if err := browser.Screenshot(context.Background(), exe, "file://"+page, o.png, size[0], size[1]); err != nil {
		return nil, err
	}
	if err := shrinkPNG(o.png); err != nil {
		return nil, err
	}
	rel, err := filepath.Rel(filepath.Dir(md), o.png)
	if err != nil {
		return nil, err
	}
	return imageBody(header(), o, rel), nil
}
