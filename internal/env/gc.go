package env

import "runtime/metrics"

// GC is what the runtime says of its collector at one moment
// (runtime/metrics), each -1 when this Go release does not offer it:
// Cycles completed so far, the collector's CPU time so far in ns (an
// estimate the runtime updates at cycle boundaries), and the heap goal
// and live heap in bytes (live: as marked by the last cycle).
type GC struct {
	Cycles, CPUNs      int64
	HeapGoal, HeapLive int64
}

// gcMetrics are the runtime/metrics names ReadGC reads, in GC's order.
var gcMetrics = [...]string{
	"/gc/cycles/total:gc-cycles",
	"/cpu/classes/gc/total:cpu-seconds",
	"/gc/heap/goal:bytes",
	"/gc/heap/live:bytes",
}

// ReadGC reads the collector's state now. It does not stop the world.
func ReadGC() GC {
	var s [len(gcMetrics)]metrics.Sample
	for i, n := range gcMetrics {
		s[i].Name = n
	}
	metrics.Read(s[:])
	v := func(i int) int64 {
		switch s[i].Value.Kind() {
		case metrics.KindUint64:
			return int64(s[i].Value.Uint64())
		case metrics.KindFloat64:
			return int64(s[i].Value.Float64() * 1e9)
		}
		return -1
	}
	return GC{Cycles: v(0), CPUNs: v(1), HeapGoal: v(2), HeapLive: v(3)}
}
