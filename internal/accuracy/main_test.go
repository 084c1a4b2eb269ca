package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// fakes returns two tables that record their arguments in calls and print
// their name; b fails with status 1.
func fakes(calls *[]string) []table {
	fake := func(name string, code int) table {
		return table{name, name + " measures nothing", func(args []string, stdout, _ io.Writer) int {
			*calls = append(*calls, fmt.Sprintf("%s %q", name, args))
			fmt.Fprintf(stdout, "%s's table\n", name)
			return code
		}}
	}
	return []table{fake("a", 0), fake("b", 1)}
}

func TestDispatchTable(t *testing.T) {
	var calls []string
	var stdout, stderr bytes.Buffer
	code := dispatch(fakes(&calls), []string{"b", "-r", "2"}, &stdout, &stderr)
	assert.Equal(t, 1, code, "the table's own status")
	assert.Equal(t, []string{`b ["-r" "2"]`}, calls, "the flags after the name go to the table")
	assert.Equal(t, "b's table\n", stdout.String())
}

func TestDispatchUnknown(t *testing.T) {
	var calls []string
	var stdout, stderr bytes.Buffer
	code := dispatch(fakes(&calls), []string{"c", "-h"}, &stdout, &stderr)
	assert.Equal(t, 2, code)
	assert.Empty(t, calls, "no table runs")
	assert.Empty(t, stdout.String())
	assert.Equal(t, "accuracy: unknown table \"c\"; the tables are a, b (or all)\n", stderr.String())
}

func TestDispatchList(t *testing.T) {
	for _, args := range [][]string{nil, {"-h"}, {"-help"}, {"--help"}, {"help"}} {
		var calls []string
		var stdout, stderr bytes.Buffer
		assert.Equal(t, 0, dispatch(fakes(&calls), args, &stdout, &stderr), "%q", args)
		assert.Empty(t, calls, "%q: no table runs", args)
		assert.Empty(t, stderr.String(), "%q", args)
		out := stdout.String()
		assert.Contains(t, out, "\n  a  a measures nothing\n  b  b measures nothing\n", "%q: one line per table, in order", args)
	}
}

func TestDispatchAll(t *testing.T) {
	var calls []string
	var stdout, stderr bytes.Buffer
	code := dispatch(fakes(&calls), []string{"all"}, &stdout, &stderr)
	assert.Equal(t, 1, code, "the largest status; b's failure does not hide")
	assert.Equal(t, []string{"a []", "b []"}, calls, "every table, in order, with its defaults")
	assert.Equal(t, "## a\n\na's table\n\n## b\n\nb's table\n", stdout.String())

	calls = nil
	stdout.Reset()
	assert.Equal(t, 2, dispatch(fakes(&calls), []string{"all", "-r", "2"}, &stdout, &stderr), "all takes no flags")
	assert.Empty(t, calls)
}

// TestTables checks the real list without running a table: each name
// once, each a package of that name in this directory and every package
// here but harness and workloads a table, each with a one-line
// description.
func TestTables(t *testing.T) {
	entries, err := os.ReadDir(".")
	require.NoError(t, err)
	var dirs []string
	for _, e := range entries {
		if e.IsDir() && e.Name() != "harness" && e.Name() != "workloads" {
			dirs = append(dirs, e.Name())
		}
	}
	assert.ElementsMatch(t, dirs, names(tables), "the tables are this directory's packages")
	assert.Len(t, slices.Compact(slices.Sorted(slices.Values(names(tables)))), len(tables), "each table once")
	for _, tb := range tables {
		assert.NotEmpty(t, tb.doc, tb.name)
		assert.NotContains(t, tb.doc, "\n", tb.name)
		assert.NotNil(t, tb.main, tb.name)
		assert.NotEqual(t, "all", tb.name, "all runs every table")
	}
	var stdout bytes.Buffer
	list(&stdout, tables)
	_, rows, ok := strings.Cut(stdout.String(), "\ntables:\n")
	assert.True(t, ok)
	assert.Equal(t, len(tables), strings.Count(rows, "\n"), "one listing line per table")
}
