package harness

import (
	"errors"
	"flag"
	"fmt"
	"io"
)

// Main is the body of a table's Main function: it reads the table's
// configuration from args (its flags, without the table's name) with
// parse, then measures and prints the table with run, which gets stdout
// for the table and stderr for its progress. parse and run print their
// own output; Main prints their errors to stderr after the table's name
// and a colon.
//
// It returns the exit status: 0 when run succeeds or the flags ask for
// help (-h, -help: parse fails with [flag.ErrHelp], after printing the
// usage), 2 when parse fails otherwise (a bad command line) and 1 when
// run fails.
func Main[C any](name string, args []string, stdout, stderr io.Writer,
	parse func(args []string, stderr io.Writer) (C, error), run func(cfg C, stdout, stderr io.Writer) error) int {
	cfg, err := parse(args, stderr)
	switch {
	case errors.Is(err, flag.ErrHelp):
		return 0
	case err != nil:
		fmt.Fprintf(stderr, "%s: %v\n", name, err)
		return 2
	}
	if err := run(cfg, stdout, stderr); err != nil {
		fmt.Fprintf(stderr, "%s: %v\n", name, err)
		return 1
	}
	return 0
}

// CommandLine returns the command that runs table from the module root
// with flags (formatted as on a command line): "go run ./internal/accuracy
// <table> <flags>", followed by " -v" when verbose.
func CommandLine(table, flags string, verbose bool) string {
	s := "go run ./internal/accuracy " + table + " " + flags
	if verbose {
		s += " -v"
	}
	return s
}

// ParseFlags parses args with a new flag set named name, whose flags
// define adds. The flag set prints its usage and its parse errors to
// stderr and returns them rather than exiting ([flag.ContinueOnError]):
// ParseFlags returns [flag.ErrHelp] for -h and -help. It fails too if an
// argument is left after the flags, since a table takes flags only.
func ParseFlags(name string, args []string, stderr io.Writer, define func(fs *flag.FlagSet)) error {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	define(fs)
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected arguments %q", fs.Args())
	}
	return nil
}
