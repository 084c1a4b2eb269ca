package benchkit_test

import (
	"bufio"
	"encoding/json"
	"os/exec"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/benchkit/go-benchkit/internal/testbin"
)

// TestE2EStrictAndAllow runs testdata/strict, whose BenchmarkDCE raises
// the allocs flag on every run and whose BenchmarkEmptyAllowed allows the
// eliminated flag.
func TestE2EStrictAndAllow(t *testing.T) {
	bin := e2eBuild(t, "strict")
	args := []string{"-test.bench=.", "-test.benchtime=20ms", "-test.count=3", "-benchkit.warmup=off"}
	const allocsHead = "benchkit: BenchmarkDCE: 0.00 allocs/op, but ExpectAllocs(1) declared at least 1"

	t.Run("warnings are logged once, not per repeat", func(t *testing.T) {
		o := e2eRun(t, bin, 2*time.Minute, args...)
		require.False(t, o.failed, "flags warn without strict mode:\n%s", o.text)
		logs := strings.Join(o.logs[e2eName("BenchmarkDCE")], "")
		assert.Equal(t, 1, strings.Count(logs, allocsHead), "the allocs warning under 3 repeats:\n%s", logs)
		assert.Regexp(t, `(?m)^\s+strict_test\.go:\d+: `+regexp.QuoteMeta(allocsHead), o.text, "attributed to the benchmark's Track line")
		assert.Regexp(t, `(?m)^benchkit │   ⚠ DCE(-\d+)?: allocs \(in 3 runs\): `, o.text, "the report counts the repeats")
		allowed := strings.Join(o.logs[e2eName("BenchmarkEmptyAllowed")], "")
		assert.NotContains(t, allowed, "benchkit:", "an allowed flag is not logged")
		for _, l := range strings.Split(o.text, "\n") {
			if strings.Contains(l, "benchkit: Benchmark") && !strings.HasPrefix(l, "benchkit │") {
				assert.LessOrEqual(t, len([]rune(strings.TrimSpace(l))), 200, "a logged headline is short: %s", l)
			}
		}
	})

	t.Run("strict fails the benchmark, visible to go test -json", func(t *testing.T) {
		r := testbin.Run(t, bin, "", 2*time.Minute, nil, append([]string{"-test.run=^$", "-test.v=test2json", "-benchkit.strict"}, args...)...)
		assert.Equal(t, 1, r.Code, r.Combined())
		events := e2eTest2JSON(t, r.Stdout)
		dce, allowedFailed := 0, false
		for _, e := range events {
			if e.Action != "fail" {
				continue
			}
			if strings.HasPrefix(e.Test, "BenchmarkDCE") {
				dce++
			}
			allowedFailed = allowedFailed || strings.HasPrefix(e.Test, "BenchmarkEmptyAllowed")
		}
		assert.Equal(t, 3, dce, "go test -json names BenchmarkDCE as failed in each repeat: %+v", events)
		assert.False(t, allowedFailed, "an allowed flag fails nothing in strict mode")
		assert.Contains(t, r.Stdout, "✗ benchkit: DCE-2 raised allocs")
		assert.NotContains(t, r.Stdout, "EmptyAllowed-2 raised")
	})
}

type e2eEvent struct{ Action, Test string }

// e2eTest2JSON converts a test binary's -test.v=test2json output with go
// tool test2json, as go test -json does, and returns its events.
func e2eTest2JSON(t *testing.T, out string) []e2eEvent {
	t.Helper()
	cmd := exec.Command("go", "tool", "test2json")
	cmd.Stdin = strings.NewReader(out)
	js, err := cmd.Output()
	require.NoError(t, err)
	var events []e2eEvent
	sc := bufio.NewScanner(strings.NewReader(string(js)))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		var e e2eEvent
		require.NoError(t, json.Unmarshal(sc.Bytes(), &e), sc.Text())
		events = append(events, e)
	}
	return events
}
