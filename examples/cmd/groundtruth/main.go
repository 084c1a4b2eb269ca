// Command groundtruth runs seed 000's harness R times two ways and prints
// one markdown table of how often each way got the known answers: beta is
// identical to alpha (truth 0%), plus5 does 5% more work (truth +5%).
//
//	go run ./examples/cmd/groundtruth -r 30
//
// Each repetition runs two processes of one test binary built once from
// -pkg (examples/seed000), in alternating order:
//
//   - control: -bench='^BenchmarkCompare$' -benchtime=<-benchtime>, one
//     control.Compare per workload; the verdict and the delta are read from
//     the log line Compare prints for each candidate (two decimals), and
//     checked against its <name>/alpha-% metric (a ratio in percent, which
//     go test prints to 0.1 points). Flagged means a decided verdict (faster or slower).
//   - plain: -bench='^BenchmarkPlain$' -count=<-count> -benchtime=<-plain-benchtime>,
//     ordinary sub-benchmarks work=<w>/impl=<alpha|beta|plus5>, compared
//     exactly as benchstat -col /impl does: golang.org/x/perf/benchmath
//     AssumeNothing, the delta of the medians and a Mann-Whitney U test;
//     flagged means p ≤ 0.05 (benchstat prints a delta instead of ~).
//
// The table counts, per way, workload and pair: how often identical code
// was flagged (beta) or the +5% was caught with the right sign (plus5),
// wrong-sign verdicts, undecided verdicts (control only), the median and
// range of the estimated delta, and the wall time per repetition of each
// way's process (both workloads).
package main

import (
	"bufio"
	"bytes"
	"flag"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"golang.org/x/perf/benchfmt"
	"golang.org/x/perf/benchmath"
)

var (
	reps       = flag.Int("r", 30, "repetitions")
	benchtime  = flag.String("benchtime", "1s", "-benchtime for the control.Compare run (its budget is this × 3 per workload)")
	count      = flag.Int("count", 10, "-count for the plain run")
	plainBT    = flag.String("plain-benchtime", "100ms", "-benchtime for the plain run")
	pkg        = flag.String("pkg", "./examples/seed000", "package holding BenchmarkCompare and BenchmarkPlain")
	verbose    = flag.Bool("v", false, "print each repetition's numbers to stderr")
	works      = []string{"sum", "alloc"}
	pairs      = []string{"beta", "plus5"}
	verdictRE  = regexp.MustCompile(`control: (\S+)\s+([+-][0-9.]+)% \[([+-][0-9.]+)%, ([+-][0-9.]+)%\] (\w+):`)
	benchRE    = regexp.MustCompile(`--- BENCH: BenchmarkCompare/work=(\w+)`)
	methodList = []string{"control.Compare", "go test -count + benchstat"}
)

// obs is one estimate of one pair in one repetition.
type obs struct {
	delta   float64
	verdict string // faster, slower, same, undecided
}

type key struct{ method, work, pair string }

func main() {
	flag.Parse()
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "groundtruth:", err)
		os.Exit(1)
	}
}

func run() error {
	machine := machineLine()
	tmp, err := os.MkdirTemp("", "groundtruth")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	bin := filepath.Join(tmp, "seed.test")
	if out, err := exec.Command("go", "test", "-c", "-o", bin, *pkg).CombinedOutput(); err != nil {
		return fmt.Errorf("building %s: %v\n%s", *pkg, err, out)
	}

	data := map[key][]obs{}
	wall := map[string][]time.Duration{}
	for rep := range *reps {
		order := methodList
		if rep%2 == 1 {
			order = []string{methodList[1], methodList[0]}
		}
		for _, m := range order {
			var args []string
			if m == methodList[0] {
				args = []string{"-test.run=^$", "-test.bench=^BenchmarkCompare$", "-test.benchtime=" + *benchtime}
			} else {
				args = []string{"-test.run=^$", "-test.bench=^BenchmarkPlain$", "-test.count=" + strconv.Itoa(*count), "-test.benchtime=" + *plainBT,
					// the plain way gets no warm-up: benchkit.Main is the package's TestMain
					"-benchkit.warmup=off"}
			}
			t0 := time.Now()
			out, err := exec.Command(bin, args...).Output()
			wall[m] = append(wall[m], time.Since(t0))
			if err != nil {
				return fmt.Errorf("repetition %d, %s: %v\n%s", rep+1, m, err, out)
			}
			var got map[key]obs
			if m == methodList[0] {
				got, err = parseCompare(out)
			} else {
				got, err = parsePlain(out)
			}
			if err != nil {
				return fmt.Errorf("repetition %d, %s: %v", rep+1, m, err)
			}
			for k, o := range got {
				data[k] = append(data[k], o)
				if *verbose {
					fmt.Fprintf(os.Stderr, "rep %2d %-28s %-5s %-5s %+7.2f%% %s\n", rep+1, k.method, k.work, k.pair, o.delta, o.verdict)
				}
			}
		}
	}
	printTable(os.Stdout, machine, data, wall)
	return nil
}

// parseCompare reads the Compare run: deltas from the benchmark line
// metrics (through benchfmt), verdicts from the log lines.
func parseCompare(out []byte) (map[key]obs, error) {
	got := map[key]obs{}
	r := benchfmt.NewReader(bytes.NewReader(out), "compare")
	for r.Scan() {
		res, ok := r.Result().(*benchfmt.Result)
		if !ok {
			continue
		}
		parts := nameParts(res)
		if len(parts) != 1 {
			continue
		}
		w := strings.TrimPrefix(string(parts[0]), "/work=")
		for _, p := range pairs {
			if v, ok := res.Value(p + "/alpha-%"); ok {
				got[key{methodList[0], w, p}] = obs{delta: v - 100}
			}
		}
	}
	if err := r.Err(); err != nil {
		return nil, err
	}
	work := ""
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		line := sc.Text()
		if m := benchRE.FindStringSubmatch(line); m != nil {
			work = m[1]
			continue
		}
		if m := verdictRE.FindStringSubmatch(line); m != nil && work != "" {
			k := key{methodList[0], work, m[1]}
			if o, ok := got[k]; ok {
				// The metric is printed with 4 significant digits (0.1
				// points near 100); the log line has two decimals.
				d, err := strconv.ParseFloat(m[2], 64)
				if err != nil || math.Abs(d-o.delta) > 0.051 {
					return nil, fmt.Errorf("work=%s %s: log delta %q disagrees with the metric (%.2f)", work, m[1], m[2], o.delta)
				}
				o.delta, o.verdict = d, m[5]
				got[k] = o
			}
		}
	}
	for _, w := range works {
		for _, p := range pairs {
			if got[key{methodList[0], w, p}].verdict == "" {
				return nil, fmt.Errorf("no verdict for work=%s %s in:\n%s", w, p, out)
			}
		}
	}
	return got, nil
}

// parsePlain reads the plain run and compares as benchstat -col /impl does.
func parsePlain(out []byte) (map[key]obs, error) {
	vals := map[[2]string][]float64{} // (work, impl) → sec/op
	r := benchfmt.NewReader(bytes.NewReader(out), "plain")
	for r.Scan() {
		res, ok := r.Result().(*benchfmt.Result)
		if !ok {
			continue
		}
		parts := nameParts(res)
		if len(parts) != 2 {
			continue
		}
		w := strings.TrimPrefix(string(parts[0]), "/work=")
		impl := strings.TrimPrefix(string(parts[1]), "/impl=")
		if v, ok := res.Value("sec/op"); ok {
			vals[[2]string{w, impl}] = append(vals[[2]string{w, impl}], v)
		}
	}
	if err := r.Err(); err != nil {
		return nil, err
	}
	got := map[key]obs{}
	for _, w := range works {
		base := vals[[2]string{w, "alpha"}]
		if len(base) == 0 {
			return nil, fmt.Errorf("no alpha results for work=%s", w)
		}
		for _, p := range pairs {
			xs := vals[[2]string{w, p}]
			s1 := benchmath.NewSample(slices.Clone(base), &benchmath.DefaultThresholds)
			s2 := benchmath.NewSample(slices.Clone(xs), &benchmath.DefaultThresholds)
			c1 := benchmath.AssumeNothing.Summary(s1, 0.95)
			c2 := benchmath.AssumeNothing.Summary(s2, 0.95)
			cmp := benchmath.AssumeNothing.Compare(s1, s2)
			o := obs{delta: (c2.Center/c1.Center - 1) * 100, verdict: "same"}
			if cmp.P <= cmp.Alpha { // benchstat prints a delta, not ~
				o.verdict = "slower"
				if c2.Center < c1.Center {
					o.verdict = "faster"
				}
			}
			got[key{methodList[1], w, p}] = o
		}
	}
	return got, nil
}

// nameParts returns the /key=value parts of a result's name, without the
// -GOMAXPROCS suffix benchfmt also reports as a part.
func nameParts(res *benchfmt.Result) [][]byte {
	_, parts := res.Name.Parts()
	var out [][]byte
	for _, p := range parts {
		if len(p) > 0 && p[0] == '/' {
			out = append(out, p)
		}
	}
	return out
}

func printTable(f *os.File, machine string, data map[key][]obs, wall map[string][]time.Duration) {
	fmt.Fprintf(f, "%s\n\n", machine)
	fmt.Fprintf(f, "| method | work | pair (truth) | flagged / caught | wrong sign | undecided | median Δ | Δ range (min – max) | Δ IQR | wall / rep |\n")
	fmt.Fprintf(f, "|---|---|---|---|---|---|---|---|---|---|\n")
	for _, m := range methodList {
		ws := wall[m]
		var wsec []float64
		for _, d := range ws {
			wsec = append(wsec, d.Seconds())
		}
		wallMed := quantile(wsec, 0.5)
		for _, w := range works {
			for _, p := range pairs {
				os := data[key{m, w, p}]
				n := len(os)
				var ds []float64
				flagged, wrong, und := 0, 0, 0
				for _, o := range os {
					ds = append(ds, o.delta)
					switch o.verdict {
					case "slower":
						flagged++
					case "faster":
						flagged++
						if p == "plus5" {
							wrong++
						}
					case "undecided":
						und++
					}
				}
				truth, what := "0%", "flagged"
				if p == "plus5" {
					truth, what = "+5%", "caught"
					flagged -= wrong
				}
				wrongS := "–" // a sign is wrong only against a non-zero truth
				if p == "plus5" {
					wrongS = fmt.Sprintf("%d/%d", wrong, n)
				}
				undS := "–"
				if m == methodList[0] {
					undS = fmt.Sprintf("%d/%d", und, n)
				}
				fmt.Fprintf(f, "| %s | %s | %s vs alpha (%s) | %s %d/%d | %s | %s | %+.2f%% | %+.2f%% – %+.2f%% | %.2f | %.1fs |\n",
					m, w, p, truth, what, flagged, n, wrongS, undS, quantile(ds, 0.5), quantile(ds, 0), quantile(ds, 1),
					quantile(ds, 0.75)-quantile(ds, 0.25), wallMed)
			}
		}
	}
	fmt.Fprintf(f, "\nflagged: a decided verdict (control.Compare: faster or slower) or p ≤ 0.05 (benchstat prints a delta, not ~); caught: flagged with the right sign; undecided: verdicts control.Compare refused to give (not flagged).\n")
	fmt.Fprintf(f, "wall / rep is the median wall time of that method's process per repetition (both workloads, process start included).\n")
	fmt.Fprintf(f, "command: go run ./examples/cmd/groundtruth -r %d -benchtime %s -count %d -plain-benchtime %s -pkg %s\n", *reps, *benchtime, *count, *plainBT, *pkg)
}

func quantile(xs []float64, p float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	h := float64(len(s)-1) * p
	i := int(h)
	if i >= len(s)-1 {
		return s[len(s)-1]
	}
	return s[i] + (h-float64(i))*(s[i+1]-s[i])
}

// machineLine describes the machine: Go version, CPU model, CPUs and the
// load average at the start.
func machineLine() string {
	cpu := "unknown CPU"
	if b, err := os.ReadFile("/proc/cpuinfo"); err == nil {
		for _, l := range strings.Split(string(b), "\n") {
			if k, v, ok := strings.Cut(l, ":"); ok && strings.TrimSpace(k) == "model name" {
				cpu = strings.TrimSpace(v)
				break
			}
		}
	}
	load := "unknown"
	if b, err := os.ReadFile("/proc/loadavg"); err == nil {
		load = strings.Join(strings.Fields(string(b))[:3], " ")
	}
	gover := runtime.Version()
	if out, err := exec.Command("go", "version").Output(); err == nil {
		gover = strings.TrimSpace(string(out))
	}
	return fmt.Sprintf("machine: %s; %s; %d CPUs (GOMAXPROCS %d); load average at start %s; %s",
		gover, cpu, runtime.NumCPU(), runtime.GOMAXPROCS(0), load, time.Now().UTC().Format("2006-01-02 15:04 MST"))
}
