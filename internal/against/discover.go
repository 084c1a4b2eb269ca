package against

import (
	"flag"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/benchkit/go-benchkit/internal/benchname"
	"github.com/benchkit/go-benchkit/internal/child"
)

// discoverBenchtime is each discovery process's -benchtime: long enough
// for testing's ramp to give a time per op within a factor of about two,
// which is all a lockstep run's size needs.
const discoverBenchtime = "20ms"

// leaf is a benchmark both binaries can run in lockstep: its name as
// printed (without "Benchmark", with the -P suffix), the b.Name() a
// -test.bench filter selects it by, the GOMAXPROCS it runs at, and the
// base's time per op from discovery, in ns.
type leaf struct {
	name, full string
	procs      int
	nsPerOp    float64
}

// discovery is what one discovery process of each binary said: the
// benchmarks it printed, and those that called Track, with their time.
type discovery struct {
	printed [2]map[string]bool // by side: sideBase, sideNew
	tracked [2]map[string]child.Tracked
	// speaks says whether the binary speaks the lockstep protocol: its
	// discovery file has a line (benchkit.Main announced it, or a
	// benchmark called Track).
	speaks [2]bool
}

// noProtocol is why a benchmark that calls Track in this binary runs in
// rounds when the base speaks no lockstep protocol: as in the pull
// request that adopts benchkit, whose base has neither Main nor Track.
const noProtocol = "the base binary does not speak the lockstep protocol: its TestMain does not call benchkit.Main " +
	"(as before the change that adopts benchkit) or its benchkit predates lockstep; rounds of whole processes decide " +
	"only large changes (intervals of several percent), allocs/op and B/op exactly"

// protocolOf returns the lockstep protocol of a binary whose discovery
// tracked ts: child.Tracked.Protocol, 1 when its benchkit predates the
// field.
func protocolOf(ts map[string]child.Tracked) int {
	p := 1
	for _, t := range ts {
		p = max(p, t.Protocol)
	}
	return p
}

// discover runs each binary once over the whole selection, at
// discoverBenchtime, and returns the benchmarks both can run in lockstep
// (both called Track or Loop), in the order the base printed them. A
// benchmark that fails there is recorded as a failure and left out, as in
// the rounds. It also returns why the others cannot run in lockstep, by
// name.
func (st *state) discover(dir string, fs *flag.FlagSet) (lock []leaf, why map[string]string) {
	var d discovery
	for i, s := range []int{sideBase, sideNew} {
		d.printed[i], d.tracked[i], d.speaks[i] = st.discoverOne(s, dir, fs)
	}
	st.baseProtocol = protocolOf(d.tracked[0])
	return d.classify(st.failed)
}

// classify splits the benchmarks both binaries printed, leaving out those
// that failed (by top-level name), into those both tracked and the others,
// with why each of those cannot run in lockstep.
func (d discovery) classify(failed map[string]bool) (lock []leaf, why map[string]string) {
	why = map[string]string{}
	for _, name := range sortedNames(d.printed[0]) {
		if !d.printed[1][name] || failed["Benchmark"+benchname.TopLevel(name)] {
			continue // one binary only, or failed: said elsewhere
		}
		b, okB := d.tracked[0][name]
		_, okN := d.tracked[1][name]
		switch {
		case okB && okN:
			lock = append(lock, leaf{name: name, full: benchname.Trim(b.Name, cpus()...), procs: benchname.Procs(name, cpus()), nsPerOp: b.NsPerOp})
		case !d.speaks[0] && okN:
			why[name] = noProtocol
		default:
			why[name] = "it calls neither benchkit.Track nor benchkit.Loop in " + missingIn(okB, okN)
		}
	}
	return lock, why
}

// discoverOne runs side s's binary once in discovery mode and returns
// the benchmarks it printed, those it tracked, and whether it speaks the
// lockstep protocol. A failure is recorded like a round's.
func (st *state) discoverOne(s int, dir string, fs *flag.FlagSet) (printed map[string]bool, tracked map[string]child.Tracked, speaks bool) {
	printed, tracked = map[string]bool{}, map[string]child.Tracked{}
	path := st.exe(s)
	if path == "" {
		return printed, tracked, false
	}
	marker := filepath.Join(dir, fmt.Sprintf("discover-%s.json", sideNames[s]))
	sel := selection{bench: st.p.pattern, skip: st.p.skip, procs: cpus()}
	env := append(append(child.Env("", marker), child.ChildEnv(dir)...), child.EnvDiscover+"=1", "BENCHKIT_AGAINST=")
	spec := child.Spec{Path: path, Shown: st.shown(s), Args: child.RunArgs(fs, sel.bench, discoverBenchtime, sel.skip), Env: env, Dir: st.dir(s), Timeout: st.p.timeout}
	res, err := child.Run(spec)
	if err != nil && st.interrupted(res) {
		return printed, tracked, false
	}
	parsed := parseOutput(res.Stdout, sel)
	st.reject(s, 0, parsed.bad, res)
	if err != nil {
		st.processFailed(s, 0, err, res)
	}
	for name := range parsed.results {
		printed[name] = true
		st.seen[s][name] = true
	}
	ts, terr := child.ReadTracked(marker)
	if terr != nil {
		st.warnings = append(st.warnings, fmt.Sprintf("benchkit: the %s binary's discovery file: %v; its benchmarks are measured in rounds of processes", sideNames[s], terr))
		return printed, tracked, false
	}
	for _, t := range ts {
		name := strings.TrimPrefix(t.Name, "Benchmark")
		if t.Name != "" && printed[name] {
			tracked[name] = t
		}
	}
	return printed, tracked, len(ts) > 0
}

// missingIn names the binary a benchmark lacks Track in.
func missingIn(base, cand bool) string {
	switch {
	case !base && !cand:
		return "either binary"
	case !base:
		return "the base binary"
	}
	return "this binary"
}

func sortedNames(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// processFailed records a process of side s that failed in round r (0:
// discovery), naming the benchmarks it was running; they are left out of
// what follows.
func (st *state) processFailed(s, r int, err error, res child.Result) *Failure {
	f := Failure{Side: sideNames[s], Round: r, Benchmarks: failedBenchmarks(joinOutput(res.Stdout, res.Stderr), cpus()),
		Message: failureMessage(err), Output: child.Tail(res, 40)}
	for _, b := range f.Benchmarks {
		st.failed[benchname.TopLevel(b)] = true
	}
	if !st.repeated(f) {
		st.failures = append(st.failures, f)
	}
	return &f
}

// failureMessage is an error's first line: a child.Error without the
// output it carries (the failure keeps the output apart).
func failureMessage(err error) string {
	msg, _, _ := strings.Cut(err.Error(), "; its output:")
	return msg
}

// lockstepDeadline bounds one step of a lockstep child: ten times the
// expected run plus some slack, the first step of a process more (it
// includes the process's start and TestMain).
func lockstepDeadline(run time.Duration, first bool) time.Duration {
	if first {
		return 10*run + time.Minute
	}
	return 10*run + 10*time.Second
}
