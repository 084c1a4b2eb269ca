package settings

import (
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestRegistersNothingAtImport(t *testing.T) {
	// The flags are on flag.CommandLine only once Main is called, which
	// this test binary never does.
	for _, s := range settings {
		assert.Nil(t, flag.CommandLine.Lookup(s.flag), s.flag)
	}
}

// TestMainDocListsEverySetting: Main's doc comment has a row for every
// setting, with its flag and its environment variable.
func TestMainDocListsEverySetting(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "..", "benchkit", "main.go"))
	require.NoError(t, err)
	for _, s := range settings {
		assert.Regexp(t, `(?m)^//\t-`+regexp.QuoteMeta(s.flag)+`\b.*\b`+s.env+`\b`, string(doc), "benchkit/main.go's settings table")
	}
}

// TestForks: one rule for the number of forks, whoever reads it: the flag
// over the variable, 1 to MaxForks, and the same message for a bad value
// that Resolve gives before anything runs.
func TestForks(t *testing.T) {
	fs := flag.NewFlagSet("x", flag.ContinueOnError)
	Register(fs, Defaults())
	env := map[string]string{}
	getenv := func(k string) string { return env[k] }
	_, set, err := Forks(getenv, fs)
	require.NoError(t, err)
	assert.False(t, set, "neither given")
	env[ForksEnv] = "7"
	n, set, err := Forks(getenv, fs)
	require.NoError(t, err)
	assert.True(t, set)
	assert.Equal(t, 7, n)
	require.NoError(t, fs.Parse([]string{"-benchkit.forks=3"}))
	n, _, err = Forks(getenv, fs)
	require.NoError(t, err)
	assert.Equal(t, 3, n, "the flag over the variable")

	for bad, why := range map[string]string{"150": "is more than the 100 processes benchkit starts at most", "0": "is not a number of processes", "x": "is not a number of processes"} {
		require.NoError(t, fs.Set(ForksFlag, bad))
		_, _, err := Forks(getenv, fs)
		assert.ErrorContains(t, err, `benchkit: flag -benchkit.forks="`+bad+`" `+why+`: use a whole number from 1 to 100`)
		_, rerr := Resolve(nil, getenv, fs)
		assert.Equal(t, err.Error(), rerr.Error(), "one rule, one message")
	}
}

// TestReport: -benchkit.report takes a destination, and full alone or
// full: before a destination for the full report; each source sets both,
// the flag over the variable over the option, and the flag's default
// shows the value that gives the option's choice again.
func TestReport(t *testing.T) {
	for _, tc := range []struct {
		v, dest string
		full    bool
	}{
		{"", "", false},
		{"stdout", "", false},
		{"stderr", ReportStderr, false},
		{"off", ReportOff, false},
		{"r.txt", "r.txt", false},
		{"full", "", true},
		{" full ", "", true},
		{"full:stdout", "", true},
		{"full:stderr", ReportStderr, true},
		{"full:out/", "out/", true},
		{"full:", "", true},
		{"./full", "./full", false},
		{"fullreport.txt", "fullreport.txt", false},
	} {
		dest, full := ParseReport(tc.v)
		assert.Equal(t, tc.dest, dest, "%q", tc.v)
		assert.Equal(t, tc.full, full, "%q", tc.v)
	}

	fs := flag.NewFlagSet("x", flag.ContinueOnError)
	opt := func(c *Config) { c.Report, c.ReportFull = ParseReport("full:stderr") }
	Register(fs, Config{Report: ReportStderr, ReportFull: true})
	assert.Equal(t, "full:stderr", fs.Lookup("benchkit.report").DefValue)
	env := map[string]string{"BENCHKIT_REPORT": "off"}
	c, err := Resolve([]func(*Config){opt}, func(k string) string { return env[k] }, fs)
	require.NoError(t, err)
	assert.Equal(t, ReportOff, c.Report)
	assert.False(t, c.ReportFull, "the variable's value sets both")
	require.NoError(t, fs.Parse([]string{"-benchkit.report=full"}))
	c, err = Resolve([]func(*Config){opt}, func(k string) string { return env[k] }, fs)
	require.NoError(t, err)
	assert.Equal(t, "", c.Report)
	assert.True(t, c.ReportFull, "the flag over the variable")
}

// TestShard: K/N from 1/1 to N/N, through the flag and the variable;
// every bad value is refused with a message that names the fix.
func TestShard(t *testing.T) {
	for in, want := range map[string]Shard{"1/4": {1, 4}, " 4/4 ": {4, 4}, "1/1": {1, 1}, "": {}} {
		got, err := ParseShard(in)
		require.NoError(t, err, in)
		assert.Equal(t, want, got, in)
	}
	assert.Equal(t, "2/3", Shard{2, 3}.String())
	assert.Empty(t, Shard{}.String())
	for in, msg := range map[string]string{
		"5/4":   `"5/4" asks for shard 5 of 4: K counts from 1 to N, so use 1/4 to 4/4`,
		"0/4":   `"0/4" asks for shard 0 of 4: K counts from 1 to N, so use 1/4 to 4/4`,
		"1/0":   `"1/0" has 0 shards: use 1 to 256 shards, such as 1/4`,
		"1/999": `"1/999" has 999 shards: use 1 to 256 shards, such as 1/4`,
		"2":     `"2" is not a shard: use K/N, such as 1/4 for the first of four shards`,
		"a/b":   `"a/b" is not a shard: use K/N, such as 1/4 for the first of four shards`,
		"1/4/2": `"1/4/2" is not a shard: use K/N, such as 1/4 for the first of four shards`,
	} {
		_, err := ParseShard(in)
		assert.EqualError(t, err, msg, in)
	}

	fs := flag.NewFlagSet("x", flag.ContinueOnError)
	Register(fs, Defaults())
	env := map[string]string{"BENCHKIT_SHARD": "2/3"}
	c, err := Resolve(nil, func(k string) string { return env[k] }, fs)
	require.NoError(t, err)
	assert.Equal(t, Shard{2, 3}, c.Shard)
	require.NoError(t, fs.Parse([]string{"-benchkit.shard=3/3"}))
	c, err = Resolve(nil, func(k string) string { return env[k] }, fs)
	require.NoError(t, err)
	assert.Equal(t, Shard{3, 3}, c.Shard, "the flag over the variable")
	require.NoError(t, fs.Set("benchkit.shard", "4/3"))
	_, err = Resolve(nil, func(k string) string { return env[k] }, fs)
	assert.EqualError(t, err, `benchkit: flag -benchkit.shard="4/3" asks for shard 4 of 3: K counts from 1 to N, so use 1/3 to 3/3`)
}
