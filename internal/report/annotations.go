package report

import (
	"fmt"
	"github.com/benchkit/go-benchkit/internal/textfmt"
	"io"
	"strings"

	"github.com/benchkit/go-benchkit/control/verdict"
)

// Annotations writes GitHub Actions workflow commands for the run: an
// ::error:: per failure of the analysis (gates, failed processes,
// flags), and a ::warning:: per cross-build benchmark that is decided
// slower, allocates more or executes more instructions per op without
// failing a gate. Messages are escaped
// as workflow commands require (%, CR, LF). Lines start with "::", which
// benchfmt reads as neither a result nor a configuration line.
func Annotations(w io.Writer, in Input, a Analysis) {
	for _, f := range a.Failures {
		fmt.Fprintf(w, "::error title=benchkit::%s\n", escapeCommand(f))
	}
	if in.Against == nil {
		return
	}
	for _, b := range in.Against.Benches {
		if b.GateFailed() {
			continue
		}
		if e := b.NewEst; e.Verdict == verdict.Slower {
			fmt.Fprintf(w, "::warning title=benchkit::%s\n", escapeCommand(fmt.Sprintf("%s is %s slower than the base %s: %s",
				b.Name, textfmt.Pct(e.DeltaPct), textfmt.Interval(e.LoPct, e.HiPct), e.Reason)))
		}
		if c := b.Instr; c != nil && c.Changed && c.DeltaPct > 0 {
			fmt.Fprintf(w, "::warning title=benchkit::%s\n", escapeCommand(fmt.Sprintf("%s executes more instructions per op: %s", b.Name, instrChangeCell(c))))
		}
		if b.Allocs.Changed() && b.Allocs.New > b.Allocs.Base {
			fmt.Fprintf(w, "::warning title=benchkit::%s\n", escapeCommand(fmt.Sprintf("%s allocates more: allocs/op %s", b.Name, changeWord(b.Allocs))))
		}
	}
}

func escapeCommand(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(s)
}
