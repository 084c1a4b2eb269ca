package harness

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestTrimProcs(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"Work-2", "Work"},
		{"Work-16", "Work"},
		{"Sum/n=1-2", "Sum/n=1"},     // a dash inside the name stays
		{"Sum/n=1-2-8", "Sum/n=1-2"}, // only the last suffix goes
		{"BenchmarkCompare/work=sum-2", "BenchmarkCompare/work=sum"},
		{"Work", "Work"},           // GOMAXPROCS 1: no suffix
		{"Sum/n=1-x", "Sum/n=1-x"}, // not digits
		{"Sum/n=1-", "Sum/n=1-"},   // no digits
		{"Sum/n=12", "Sum/n=12"},   // digits without a dash
		{"-2", "-2"},               // nothing before the suffix
		{"", ""},
	} {
		assert.Equal(t, tc.want, TrimProcs(tc.in), "%q", tc.in)
	}
}
