package harness

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// parseN reads -n, an integer ≥ 1.
func parseN(args []string, stderr io.Writer) (int, error) {
	var n int
	err := ParseFlags("t", args, stderr, func(fs *flag.FlagSet) { fs.IntVar(&n, "n", 1, "count") })
	if err == nil && n < 1 {
		err = errors.New("-n: want ≥ 1")
	}
	return n, err
}

func TestMainExitStatus(t *testing.T) {
	for _, tc := range []struct {
		args   []string
		runErr error
		code   int
		stderr string // a substring
	}{
		{args: nil, code: 0},
		{args: []string{"-h"}, code: 0, stderr: "Usage of t:"},
		{args: []string{"-n", "0"}, code: 2, stderr: "t: -n: want ≥ 1\n"},
		{args: []string{"-x"}, code: 2, stderr: "t: flag provided but not defined: -x\n"},
		{args: []string{"extra"}, code: 2, stderr: `t: unexpected arguments ["extra"]`},
		{args: []string{"-n", "3"}, runErr: errors.New("boom"), code: 1, stderr: "t: boom\n"},
	} {
		var stdout, stderr bytes.Buffer
		ran := 0
		code := Main("t", tc.args, &stdout, &stderr, parseN, func(n int, stdout, _ io.Writer) error {
			ran = n
			fmt.Fprint(stdout, "table")
			return tc.runErr
		})
		assert.Equal(t, tc.code, code, "%q", tc.args)
		assert.Contains(t, stderr.String(), tc.stderr, "%q", tc.args)
		if tc.code == 2 || len(tc.args) > 0 && tc.args[0] == "-h" {
			assert.Zero(t, ran, "%q: run is not called", tc.args)
			assert.Empty(t, stdout.String(), "%q", tc.args)
		} else {
			assert.Equal(t, "table", stdout.String(), "%q: run writes to stdout", tc.args)
		}
	}
}

func TestCommandLine(t *testing.T) {
	assert.Equal(t, "go run ./internal/accuracy t -r 2", CommandLine("t", "-r 2", false))
	assert.Equal(t, "go run ./internal/accuracy t -r 2 -v", CommandLine("t", "-r 2", true))
}

func TestParseFlagsHelp(t *testing.T) {
	var stderr bytes.Buffer
	err := ParseFlags("t", []string{"-help"}, &stderr, func(fs *flag.FlagSet) { fs.Bool("v", false, "verbose") })
	require.ErrorIs(t, err, flag.ErrHelp)
	assert.Contains(t, stderr.String(), "-v\tverbose")
}
