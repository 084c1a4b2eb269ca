package settings

import (
	"flag"
	"fmt"
	"strings"

	"github.com/benchkit/go-benchkit/internal/testflag"
)

// The switch for the extra metrics benchkit and control add to a
// benchmark's line: the flag (registered by benchkit.Main) and the
// environment variable. Both are read where the metrics are reported, so
// that the environment variable works without benchkit.Main too.
const (
	MetricsFlag = "benchkit.metrics"
	MetricsEnv  = "BENCHKIT_METRICS"
)

// ParseSwitch parses an on/off setting: "on", "true", "1", "yes" are on,
// "off", "false", "0", "no" are off, in any case and with surrounding
// space; anything else is an error that lists these words.
func ParseSwitch(s string) (bool, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "on", "true", "1", "yes", "t":
		return true, nil
	case "off", "false", "0", "no", "f":
		return false, nil
	}
	return false, fmt.Errorf("%q is not on or off: use on, off, true or false", s)
}

// Metrics reports whether the extra metrics are on: the -benchkit.metrics
// flag when it was set on fs, else the BENCHKIT_METRICS variable when it
// is set, else on. A value ParseSwitch rejects counts as on (Resolve
// rejects it, with a message, before anything runs under benchkit.Main).
func Metrics(getenv func(string) string, fs *flag.FlagSet) bool {
	on := true
	if v := getenv(MetricsEnv); v != "" {
		if b, err := ParseSwitch(v); err == nil {
			on = b
		}
	}
	if testflag.IsSet(fs, MetricsFlag) {
		if b, err := ParseSwitch(fs.Lookup(MetricsFlag).Value.String()); err == nil {
			on = b
		}
	}
	return on
}
