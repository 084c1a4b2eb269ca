package benchname

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestPrinted(t *testing.T) {
	assert.Equal(t, "BenchmarkSum-2", Printed("BenchmarkSum", 2))
	assert.Equal(t, "BenchmarkSum", Printed("BenchmarkSum", 1), "testing prints no suffix for 1")
	assert.Equal(t, "BenchmarkSum", Printed("BenchmarkSum", 0), "unknown")
	assert.Equal(t, "BenchmarkSum-2-2", Printed("BenchmarkSum-2", 2), "a name's own dash and digits stay")
}

func TestDisplay(t *testing.T) {
	assert.Equal(t, "Sum-2", Display("BenchmarkSum-2", 2), "a printed key is shown as it is")
	assert.Equal(t, "Sum-2", Display("BenchmarkSum", 2), "a name recorded without its suffix gets it")
	assert.Equal(t, "Sum", Display("BenchmarkSum", 1))
	assert.Equal(t, "Benchmark", Display("Benchmark", 0))
	assert.Equal(t, "testing.Benchmark(p.TestX.func1)", Display("testing.Benchmark(p.TestX.func1)", 1))
}

func TestTrimAndProcs(t *testing.T) {
	assert.Equal(t, "Sum", Trim("Sum-2", 2))
	assert.Equal(t, "Sum/n=1", Trim("Sum/n=1-4", 1, 4))
	assert.Equal(t, "Sum-3", Trim("Sum-3", 2), "not a -cpu value: part of the name")
	assert.Equal(t, "Copy/size-64", Trim("Copy/size-64", 2))
	assert.Equal(t, "Sum", Trim("Sum", 1))
	assert.Equal(t, "Sum-1", Trim("Sum-1", 1), "testing prints no -1")
	assert.Equal(t, "Sum-+2", Trim("Sum-+2", 2))

	assert.Equal(t, 4, Procs("Sum/n=1-4", []int{1, 4}))
	assert.Equal(t, 1, Procs("Sum/n=1", []int{1, 4}), "no suffix: the 1 of the list")
	assert.Equal(t, 2, Procs("Sum", []int{2}), "no suffix and no 1: the only value (a suffix testing would print was dropped)")
	assert.Equal(t, 0, Procs("Sum", nil))
}

func TestShortAndTopLevel(t *testing.T) {
	assert.Equal(t, "Sum/n=10-2", Short("BenchmarkSum/n=10-2"))
	assert.Equal(t, "Sum", Short("Sum"))
	assert.Equal(t, "BenchmarkSum", TopLevel("BenchmarkSum/n=10-2"))
	assert.Equal(t, "Sum", TopLevel("Sum-2"))
	assert.Equal(t, "Sum", TopLevel("Sum"))
}
