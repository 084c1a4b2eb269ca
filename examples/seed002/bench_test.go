package seed002

import (
	"testing"

	"github.com/benchkit/go-benchkit/control"
)

// counter returns a function yielding 0, 1, 2, ... wrapping at 1e6, so each
// implementation formats the same sequence of numbers, as the seed's
// `for i := 0; b.Loop(); i++ { format(i) }` does.
func counter() func() int {
	i := -1
	return func() int {
		i++
		if i == 1_000_000 {
			i = 0
		}
		return i
	}
}

// BenchmarkFormat compares Sprintf (the baseline) with Itoa. The log line
// for itoa carries the verdict; the control's line is the noise floor the
// seed measured with a second run of the same code.
func BenchmarkFormat(b *testing.B) {
	next1, next2 := counter(), counter()
	control.Compare(b,
		control.Func("sprintf", func() string { return FormatSprintf(next1()) }),
		control.Func("itoa", func() string { return FormatItoa(next2()) }),
	)
}

// BenchmarkFormatGate is the same comparison the other way round, with a
// CI gate: itoa is the baseline and sprintf a candidate that must not be
// more than 500% slower. Sprintf is about 3× slower than Itoa, so the gate
// holds; Gate(100) would fail this benchmark, with the numbers.
func BenchmarkFormatGate(b *testing.B) {
	next1, next2 := counter(), counter()
	control.With(control.Gate(500)).Compare(b,
		control.Func("itoa", func() string { return FormatItoa(next1()) }),
		control.Func("sprintf", func() string { return FormatSprintf(next2()) }),
	)
}
