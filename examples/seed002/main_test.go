package seed002

import (
	"testing"

	"github.com/benchkit/go-benchkit/benchkit"
)

// TestMain switches benchkit on for the package: environment check, warm-up
// before the first benchmark, and the hygiene report after the last.
func TestMain(m *testing.M) { benchkit.Main(m) }
