package settings

import (
	"flag"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestAgainstTarget: the rule that tells a base binary's path from a git
// revision.
func TestAgainstTarget(t *testing.T) {
	files := map[string]bool{"main": true, "bin/base": true}
	exists := func(p string) bool { return files[p] }
	for _, tc := range []struct{ in, path, rev string }{
		{"", "", ""},
		{"  ", "", ""},
		{"origin/main", "", "origin/main"},
		{"main", "main", ""}, // an existing file wins
		{"rev:main", "", "main"},
		{"path:origin/main", "origin/main", ""},
		{"bin/base", "bin/base", ""},
		{"v1.2.0", "", "v1.2.0"},
		{"HEAD~1", "", "HEAD~1"},
		{"0123abcd", "", "0123abcd"},
		{"/tmp/base.test", "/tmp/base.test", ""},
		{"./base", "./base", ""},
		{"../x/base", "../x/base", ""},
		{"~/base", "~/base", ""},
		{"base.test", "base.test", ""},
		{"base.exe", "base.exe", ""},
		{`out\base`, `out\base`, ""},
		{" rev: feature/x ", "", "feature/x"},
	} {
		path, rev := AgainstTarget(tc.in, exists)
		assert.Equal(t, tc.path, path, "path of %q", tc.in)
		assert.Equal(t, tc.rev, rev, "revision of %q", tc.in)
	}
}

// TestAgainstOn: a revision alone asks for a comparison.
func TestAgainstOn(t *testing.T) {
	assert.False(t, Against{}.On())
	assert.True(t, Against{Rev: "main"}.On())
	assert.True(t, Against{Base: "base.test"}.On())
	assert.NoError(t, Config{Against: Against{Rev: "main", Gate: 5}}.CheckAgainstOnly())

	fs := flag.NewFlagSet("x", flag.ContinueOnError)
	Register(fs, Defaults())
	require.NoError(t, fs.Parse([]string{"-benchkit.against=origin/main"}))
	c, err := Resolve(nil, func(string) string { return "" }, fs)
	require.NoError(t, err)
	assert.Equal(t, Against{Rev: "origin/main"}, c.Against)
}
