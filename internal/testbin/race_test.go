package testbin

import (
	"strings"
	"testing"
)

func TestRaceUnsupported(t *testing.T) {
	tests := []struct {
		goos, goarch string
		cgo          bool
		want         string // a substring of the reason; "" when -race works
	}{
		{"linux", "amd64", true, ""},
		{"linux", "arm64", true, ""},
		{"linux", "ppc64le", true, ""},
		{"linux", "s390x", true, ""},
		{"linux", "loong64", true, ""},
		{"linux", "riscv64", true, ""},
		{"darwin", "amd64", true, ""},
		{"darwin", "arm64", false, ""}, // the race runtime needs no cgo on darwin
		{"freebsd", "amd64", true, ""},
		{"netbsd", "amd64", true, ""},
		{"windows", "amd64", true, ""},
		{"linux", "amd64", false, "needs cgo"},
		{"windows", "amd64", false, "needs cgo"},
		{"linux", "386", true, "not supported on linux/386"},
		{"linux", "386", false, "not supported on linux/386"},
		{"linux", "arm", true, "not supported on linux/arm"},
		{"windows", "arm64", true, "not supported on windows/arm64"},
		{"freebsd", "arm64", true, "not supported on freebsd/arm64"},
		{"openbsd", "amd64", true, "not supported on openbsd/amd64"},
		{"js", "wasm", false, "not supported on js/wasm"},
	}
	for _, tt := range tests {
		got := raceUnsupported(tt.goos, tt.goarch, tt.cgo)
		if tt.want == "" && got != "" || tt.want != "" && !strings.Contains(got, tt.want) {
			t.Errorf("raceUnsupported(%q, %q, %v) = %q, want %q", tt.goos, tt.goarch, tt.cgo, got, tt.want)
		}
	}
}
