package calibrate

import (
	"testing"

	"github.com/benchkit/go-benchkit/benchkit"
)

// TestMain runs the package under benchkit.Main, which writes the JSON
// report (-benchkit.json) the forks table reads control.Compare's
// estimates from.
func TestMain(m *testing.M) { benchkit.Main(m) }
