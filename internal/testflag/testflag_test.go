package testflag

import (
	"flag"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParse(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want Benchtime
		ok   bool
	}{
		{"1s", Benchtime{D: time.Second}, true},
		{"250ms", Benchtime{D: 250 * time.Millisecond}, true},
		{"100x", Benchtime{N: 100}, true},
		{"1x", Benchtime{N: 1}, true},
		{"0x", Benchtime{}, false},
		{"-3x", Benchtime{}, false},
		{"x", Benchtime{}, false},
		{"0s", Benchtime{}, false},
		{"-1s", Benchtime{}, false},
		{"fast", Benchtime{}, false},
		{"", Benchtime{}, false},
	} {
		got, ok := Parse(tc.in)
		assert.Equal(t, tc.want, got, tc.in)
		assert.Equal(t, tc.ok, ok, tc.in)
	}
}

// TestRead runs inside a test binary, where testing has registered the
// flags: it returns the values go test was given (the defaults here).
func TestRead(t *testing.T) {
	bt := Read()
	assert.True(t, bt.D > 0 || bt.N > 0, "a benchtime is always returned: %+v", bt)
	assert.GreaterOrEqual(t, Count(), 1)
}

func TestCPUs(t *testing.T) {
	f := flag.Lookup("test.cpu")
	if f == nil {
		t.Skip("no test.cpu flag")
	}
	old := f.Value.String()
	defer func() { _ = f.Value.Set(old) }()
	for _, tc := range []struct {
		in   string
		want []int
	}{
		{"", nil},
		{"1,2", []int{1, 2}},
		{" 2 , ,1", []int{2, 1}},
		{"1,x", nil},
		{"0", nil},
	} {
		require.NoError(t, f.Value.Set(tc.in))
		assert.Equal(t, tc.want, CPUs(), tc.in)
	}
}
