package benchkit

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestRunReturnsForTeardown runs testdata/mainrun, whose TestMain calls
// Run and tears down after it: the teardown runs, the process exits with
// Run's code, and the report is where -benchkit.report says.
func TestRunReturnsForTeardown(t *testing.T) {
	bin := mainBinaryOf(t, "", "mainrun")
	args := []string{"-test.run=^$", "-test.bench=.", "-test.benchtime=1x", "-benchkit.warmup=off"}
	for _, tc := range []struct {
		name   string
		env    []string
		extra  []string
		code   int
		stdout bool // the report is on stdout (else stderr)
	}{
		{name: "passing run, report on stdout", code: 0, stdout: true},
		{name: "failing benchmark: Run returns 1", env: []string{"MAINRUN_FAIL=1"}, code: 1, stdout: true},
		{name: "report on stderr", extra: []string{"-benchkit.report=stderr"}, code: 0},
		{name: "BENCHKIT_REPORT=stderr", env: []string{"BENCHKIT_REPORT=stderr"}, code: 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := mainExec(t, bin, tc.env, append(args, tc.extra...)...)
			assert.Equal(t, tc.code, r.code, r.stdout+r.stderr)
			assert.Contains(t, r.stderr, "mainrun: teardown ran; exit code "+[]string{"0", "1"}[tc.code])
			const title = "benchkit │ github.com/benchkit/go-benchkit/benchkit/testdata/mainrun · go"
			if tc.code == 0 {
				assert.Equal(t, tc.stdout, strings.Contains(r.stdout, title), "report on stdout:\n%s", r.stdout)
				assert.Equal(t, !tc.stdout, strings.Contains(r.stderr, title), "report on stderr:\n%s", r.stderr)
			}
		})
	}
}
