package against

import (
	"testing"

	"github.com/benchkit/go-benchkit/benchkit"
	"github.com/benchkit/go-benchkit/internal/accuracy/workloads/calibrate"
	"github.com/benchkit/go-benchkit/internal/accuracy/workloads/gate"
	"github.com/benchkit/go-benchkit/sink"
)

func TestMain(m *testing.M) { benchkit.Main(m) }

// tableEnv, set to 1, runs the benchmarks at a measuring -benchtime.
const tableEnv = "BENCHKIT_AGAINST_TABLE"

func BenchmarkCompute(b *testing.B) {
	gate.HarnessOnly(b, tableEnv, "against")
	benchkit.Track(b)
	data := sink.Opaque(Data[:computeBytes+extraBytes])
	for b.Loop() {
		sink.Keep(calibrate.FNV(data))
	}
}

func BenchmarkAlloc(b *testing.B) {
	gate.HarnessOnly(b, tableEnv, "against")
	benchkit.Track(b)
	for b.Loop() {
		BuildList(allocNodes + extraNodes)
		if extraAllocBytes > 0 {
			Spare = make([]byte, extraAllocBytes)
		}
		if mutatorBytes > 0 {
			sink.Keep(calibrate.FNV(Data[:mutatorBytes]))
		}
	}
}

func BenchmarkMap(b *testing.B) {
	gate.HarnessOnly(b, tableEnv, "against")
	benchkit.Track(b)
	keys := sink.Opaque(Keys[:mapKeys+extraKeys])
	for b.Loop() {
		sink.Keep(Lookup(keys))
	}
}

func BenchmarkAllocLive(b *testing.B) {
	gate.HarnessOnly(b, tableEnv, "against")
	BuildLive()
	benchkit.Track(b)
	for b.Loop() {
		BuildList(allocNodes + extraNodes)
		if extraAllocBytes > 0 {
			Spare = make([]byte, extraAllocBytes)
		}
		if mutatorLiveBytes > 0 {
			sink.Keep(calibrate.FNV(Data[:mutatorLiveBytes]))
		}
	}
}
