package wander

import (
	"fmt"
	"io"
	"maps"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/benchkit/go-benchkit/internal/accuracy/harness"
	"github.com/benchkit/go-benchkit/internal/child"
	"github.com/benchkit/go-benchkit/internal/report"
)

// runs maps a workload's display name to its per-run ns/op in one
// process, in the order they ran.
type runs map[string][]float64

// run builds the binary, runs both experiments and prints the table.
func run(cfg config, stdout, stderr io.Writer) error {
	ws, err := harness.NewWorkspace("wander", cfg.pkg)
	if err != nil {
		return err
	}
	defer ws.Close()
	var procs, seeded []runs
	seed := &[16]byte{}
	for i := range seed {
		seed[i] = byte(rand.Uint32())
	}
	for i := range cfg.procs {
		r, err := runProc(cfg, ws.Bin, filepath.Join(ws.Dir, fmt.Sprintf("p%d.json", i)), cfg.count, nil)
		if err != nil {
			return fmt.Errorf("process %d of %d: %w", i+1, cfg.procs, err)
		}
		procs = append(procs, r)
		cfg.log(stderr, fmt.Sprintf("process %d", i+1), r)
		if !cfg.seeds {
			continue
		}
		r, err = runProc(cfg, ws.Bin, filepath.Join(ws.Dir, fmt.Sprintf("s%d.json", i)), cfg.count, seed)
		if err != nil {
			return fmt.Errorf("process %d of %d with one seed: %w", i+1, cfg.procs, err)
		}
		seeded = append(seeded, r)
		cfg.log(stderr, fmt.Sprintf("process %d, one seed", i+1), r)
	}
	var long runs
	if cfg.long > 0 {
		if long, err = runProc(cfg, ws.Bin, filepath.Join(ws.Dir, "long.json"), cfg.long, nil); err != nil {
			return fmt.Errorf("the long process: %w", err)
		}
		cfg.log(stderr, "long process", long)
	}
	printTable(stdout, procs, seeded, long, cfg.long)
	fmt.Fprintf(stdout, "\n%s\n\ncommand: %s\n", ws.Machine, cfg.commandLine())
	return nil
}

// runProc runs the -bench benchmarks in one fresh process with
// -test.count=count and returns each workload's runs from its JSON report
// at path ([runsOf]); with seed not nil the process starts with those
// AT_RANDOM bytes. BENCHKIT_SIGNALS=1 and BENCHKIT_AGAINST_TABLE=1 let
// the signals and against workloads measure (they skip without it).
func runProc(cfg config, bin, path string, count int, seed *[16]byte) (runs, error) {
	args := []string{"-test.run=^$", "-test.bench=" + cfg.bench, fmt.Sprintf("-test.count=%d", count), "-test.benchtime=" + cfg.benchtime}
	env := []string{"BENCHKIT_SIGNALS=1", "BENCHKIT_AGAINST_TABLE=1"}
	if seed == nil {
		rep, _, _, err := harness.RunReport(bin, path, args, append(os.Environ(), env...), cfg.timeout)
		if err != nil {
			return nil, err
		}
		return runsOf(rep, count)
	}
	res, err := child.Run(child.Spec{Path: bin, Args: append(args, "-benchkit.json="+path), Env: env, Timeout: cfg.timeout, AuxRandom: seed})
	if err != nil {
		return nil, fmt.Errorf("%v\n%s", err, child.Tail(res, 40))
	}
	rep, err := harness.ReadReport(path)
	if err != nil {
		return nil, err
	}
	return runsOf(rep, count)
}

// runsOf returns each benchmark's per-run ns/op from a JSON report whose
// rows must hold count runs each; rows with no runs (sample_source
// "none") are left out.
func runsOf(rep report.JSONReport, count int) (runs, error) {
	out := runs{}
	for _, b := range rep.Benchmarks {
		if b.SampleSource == report.SourceNone {
			continue // a row with no timed runs, such as control.Compare's
		}
		if b.SampleSource != report.SourceRuns || len(b.Samples) != count {
			return nil, fmt.Errorf("%s: %d samples from %q, want %d runs", b.Display, len(b.Samples), b.SampleSource, count)
		}
		out[b.Display] = b.Samples
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no benchmark in the report has runs: -bench must select benchmarks that time their own loop (control.Compare's rows have none)")
	}
	return out, nil
}

// log prints a process's runs to w with -v, workloads sorted.
func (c config) log(w io.Writer, what string, r runs) {
	if !c.verbose {
		return
	}
	for _, n := range slices.Sorted(maps.Keys(r)) {
		fmt.Fprintf(w, "%s %s %s: %.4g\n", time.Now().UTC().Format("15:04:05"), what, n, r[n])
	}
}
