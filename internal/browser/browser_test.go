package browser

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestConsoleLine: console messages are found in the log formats of
// current and older Chromium releases, and nothing else is.
func TestConsoleLine(t *testing.T) {
	log := `[4404:4465:1201/224134.442348:ERROR:dbus/bus.cc:405] Failed to connect to the bus
[4404:4404:1201/224135.576861:INFO:CONSOLE:6] "Uncaught ReferenceError: x is not defined", source: file:///tmp/r.html (6)
[1:1:0101/000000.000000:INFO:CONSOLE(12)] "old format", source: file:///tmp/r.html (12)
`
	assert.Equal(t, []string{
		`:CONSOLE:6] "Uncaught ReferenceError: x is not defined", source: file:///tmp/r.html (6)`,
		`:CONSOLE(12)] "old format", source: file:///tmp/r.html (12)`,
	}, consoleLine.FindAllString(log, -1))
}

func TestTail(t *testing.T) {
	assert.Equal(t, "b\nc", tail("a\nb\nc\n", 2))
	assert.Equal(t, "a", tail("a", 5))
}
