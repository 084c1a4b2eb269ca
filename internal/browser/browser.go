// Package browser runs headless Chromium on a local page, for the HTML
// report's browser test and the doc-capture tool's screenshots. It only
// starts the chromium command (Debian's chromium package); no driver
// protocol, no Node.js.
//
// Every run gets a new empty profile (removed afterwards) and the flags
// that keep Chromium off the network: no background networking,
// component updates, sync or QUIC, so that a page that loads nothing
// from the network makes Chromium contact nothing.
package browser

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"time"
)

// Names are the commands Find looks for on PATH, in order.
var Names = []string{"chromium", "chromium-browser", "google-chrome"}

// Timeout bounds one run of Chromium.
const Timeout = 2 * time.Minute

// Find returns the path of the first of Names on PATH, or "" when there
// is none.
func Find() string {
	for _, n := range Names {
		if p, err := exec.LookPath(n); err == nil {
			return p
		}
	}
	return ""
}

// Page is what loading a page gave.
type Page struct {
	// DOM is the document after its load event (--dump-dom): script
	// that ran at load has changed it.
	DOM string
	// Console holds every console message logged while the page and its
	// frames loaded, as Chromium's log prints them ("CONSOLE:6] "msg",
	// source: file:///… (6)"); a page without script logs none unless
	// something failed (a resource that did not load, a blocked frame).
	Console []string
}

// consoleLine matches a console message in Chromium's log on stderr:
// "[pid:tid:date:INFO:CONSOLE:6] …" (Chromium 120 and later) or
// "…:INFO:CONSOLE(6)] …" (older releases).
var consoleLine = regexp.MustCompile(`:CONSOLE[:(]\d+\)?\] .*`)

// Load loads url (a file:// URL of a local page) with exe and returns
// its DOM after the load event and its console messages. Pages may read
// the documents of frames loaded from other local files
// (--allow-file-access-from-files).
func Load(ctx context.Context, exe, url string) (Page, error) {
	out, log, err := run(ctx, exe, "--dump-dom", "--enable-logging=stderr", "--v=0", url)
	if err != nil {
		return Page{}, err
	}
	return Page{DOM: out, Console: consoleLine.FindAllString(log, -1)}, nil
}

// Screenshot renders url with exe in a window of width × height CSS
// pixels at a device scale of 1 and writes the PNG to path.
func Screenshot(ctx context.Context, exe, url, path string, width, height int) error {
	_, _, err := run(ctx, exe, "--screenshot="+path, fmt.Sprintf("--window-size=%d,%d", width, height), "--force-device-scale-factor=1", url)
	if err != nil {
		return err
	}
	if fi, err := os.Stat(path); err != nil || fi.Size() == 0 {
		return fmt.Errorf("browser: %s wrote no screenshot to %s", exe, path)
	}
	return nil
}

// run runs exe headless with a new profile and args, within Timeout,
// and returns its stdout and stderr.
func run(ctx context.Context, exe string, args ...string) (stdout, stderr string, err error) {
	profile, err := os.MkdirTemp("", "benchkit-chromium-")
	if err != nil {
		return "", "", fmt.Errorf("browser: a profile directory: %w", err)
	}
	defer os.RemoveAll(profile)
	ctx, cancel := context.WithTimeout(ctx, Timeout)
	defer cancel()
	base := []string{
		"--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync",
		"--hide-scrollbars", "--allow-file-access-from-files", "--user-data-dir=" + profile,
	}
	cmd := exec.CommandContext(ctx, exe, append(base, args...)...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			err = fmt.Errorf("no result within %v", Timeout)
		}
		return "", errb.String(), fmt.Errorf("browser: %s %s: %w; its log ends:\n%s", exe, strings.Join(args, " "), err, tail(errb.String(), 20))
	}
	return out.String(), errb.String(), nil
}

// tail returns the last n lines of s.
func tail(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	return strings.Join(lines[max(0, len(lines)-n):], "\n")
}
