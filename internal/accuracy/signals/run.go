package signals

import (
	"errors"
	"fmt"
	"io"

	"github.com/benchkit/go-benchkit/internal/accuracy/harness"
	"github.com/benchkit/go-benchkit/internal/report"
)

// errFailed reports that some processes failed; their output has already
// been printed.
var errFailed = errors.New("some processes failed (see above); they are left out of the table")

// run builds the binaries, runs the repetitions and prints the table.
func run(cfg config, stdout, stderr io.Writer) error {
	ws, err := harness.NewWorkspace("signals", cfg.pkg)
	if err != nil {
		return err
	}
	defer ws.Close()
	hogBin, err := harness.Build(cfg.hogPkg, ws.Dir)
	if err != nil {
		return err
	}
	obs := map[string][]report.JSONBenchmark{} // display name → one row per process
	failed := 0
	for rep := range cfg.reps {
		for _, p := range cfg.procs(ws.Bin, hogBin, ws.Dir, rep) {
			rows, err := runProc(p, cfg.timeout)
			if err != nil {
				fmt.Fprintf(stderr, "signals: repetition %d: %v\n", rep+1, err)
				failed++
				continue
			}
			for _, r := range rows {
				obs[r.Display] = append(obs[r.Display], r)
				if cfg.verbose {
					fmt.Fprintf(stderr, "rep %d %s: %s grade %s ± %s runs %s regimes %v\n", rep+1, p.name, r.Display,
						r.Grade, fmtPtr(r.MedianCIPct), fmtIntPtr(r.RunsNeeded), r.Regimes != nil)
				}
			}
		}
	}
	printTable(stdout, obs)
	fmt.Fprintf(stdout, "\n%s\n\ncommand: %s\n", ws.Machine, cfg.commandLine())
	if failed > 0 {
		return fmt.Errorf("%d of %d processes failed: %w", failed, cfg.reps*3, errFailed)
	}
	return nil
}
