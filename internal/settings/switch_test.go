package settings

import (
	"flag"
	"io"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParseSwitch(t *testing.T) {
	for in, want := range map[string]bool{"on": true, " ON ": true, "true": true, "1": true, "yes": true,
		"off": false, "False": false, "0": false, "no": false} {
		got, err := ParseSwitch(in)
		require.NoError(t, err, in)
		assert.Equal(t, want, got, in)
	}
	for _, in := range []string{"", "maybe", "2", "offf"} {
		_, err := ParseSwitch(in)
		assert.EqualError(t, err, `"`+in+`" is not on or off: use on, off, true or false`)
	}
}

// TestMetrics: the flag (when set) over the variable over the default on;
// an invalid value counts as on.
func TestMetrics(t *testing.T) {
	for _, tc := range []struct {
		name string
		env  string
		args []string
		want bool
	}{
		{"default on", "", nil, true},
		{"env off", "off", nil, false},
		{"env 0", "0", nil, false},
		{"env invalid counts as on", "maybe", nil, true},
		{"flag off", "", []string{"-benchkit.metrics=false"}, false},
		{"flag on over env off", "off", []string{"-benchkit.metrics=on"}, true},
		{"flag off over env on", "on", []string{"-benchkit.metrics=off"}, false},
		{"flag registered but not set: env decides", "off", []string{}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fs := flag.NewFlagSet("x", flag.ContinueOnError)
			fs.SetOutput(io.Discard)
			fs.String(MetricsFlag, "on", "")
			require.NoError(t, fs.Parse(tc.args))
			got := Metrics(func(k string) string {
				if k == MetricsEnv {
					return tc.env
				}
				return ""
			}, fs)
			assert.Equal(t, tc.want, got)
		})
	}
	// Without Main the flag is not registered: the variable alone decides.
	fs := flag.NewFlagSet("x", flag.ContinueOnError)
	assert.False(t, Metrics(func(string) string { return "off" }, fs))
}
