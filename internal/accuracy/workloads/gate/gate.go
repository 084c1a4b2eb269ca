// Package gate keeps the accuracy tables' workloads out of go test
// -bench=. ./...: each runs only when its table sets an environment
// variable, or under a -benchtime=Nx smoke run.
package gate

import (
	"os"
	"testing"

	"github.com/benchkit/go-benchkit/internal/testflag"
)

// HarnessOnly skips b unless env is set or -benchtime is a count (Nx),
// naming the table that runs it ("forks").
func HarnessOnly(b *testing.B, env, table string) {
	b.Helper()
	if os.Getenv(env) == "" && testflag.Read().N == 0 {
		b.Skipf("a measurement harness for go run ./internal/accuracy %s: set %s=1 to run it with a -benchtime duration", table, env)
	}
}
