package textfmt

import (
	"math"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

func TestDur(t *testing.T) {
	for _, tc := range []struct {
		d    time.Duration
		want string
	}{
		{0, "0s"},
		{999, "999ns"},
		{12345, "12.35µs"},
		{1234567, "1.235ms"},
		{300500000, "300.5ms"},
		{2 * time.Second, "2s"},
		{90 * time.Minute, "1h30m0s"},
		{-12345, "-12.35µs"},
	} {
		assert.Equal(t, tc.want, Dur(tc.d), "%d", tc.d)
	}
}

func TestPlural(t *testing.T) {
	assert.Equal(t, "1 round", Plural(1, "round"))
	assert.Equal(t, "0 rounds", Plural(0, "round"))
	assert.Equal(t, "3 batches", Plural(3, "batch"))
	assert.Equal(t, "1 batch", Plural(1, "batch"))
}

func TestOneLine(t *testing.T) {
	assert.Equal(t, "a b c", OneLine(" a\nb\tc\r\n"))
	assert.Equal(t, "x y", OneLine("x\x00y\x7f"))
}

func TestPctAndInterval(t *testing.T) {
	assert.Equal(t, "+4.93%", Pct(4.9301))
	assert.Equal(t, "-0.50%", Pct(-0.5))
	assert.Equal(t, "?", Pct(math.NaN()))
	assert.Equal(t, "[-0.12%, +0.40%]", Interval(-0.12, 0.4))
	assert.Equal(t, "no interval", Interval(math.NaN(), math.NaN()), "never a point [Δ, Δ]")
	assert.Equal(t, "no interval", Interval(1, math.Inf(1)))
}
