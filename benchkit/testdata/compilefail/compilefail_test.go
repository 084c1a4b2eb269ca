// Package compilefail does not compile, on purpose: Track takes a
// *testing.B, so calling it from a Test is a type error.
// benchkit's TestTrackFromATestDoesNotCompile checks the compiler says so.
package compilefail

import (
	"testing"

	"github.com/benchkit/go-benchkit/benchkit"
)

func TestTracked(t *testing.T) {
	benchkit.Track(t)
}
