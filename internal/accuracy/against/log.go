package against

import (
	"bufio"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/benchkit/go-benchkit/internal/accuracy/harness"
)

// A logged repetition is one line of the -log file: every cell's outcomes
// in one repetition, so that a table of many repetitions can be gathered
// over several invocations (a run killed midway loses only the repetition
// it was in). Lines are JSON, one repetition or one truth ([truthLine])
// each, in the order measured.
type logged struct {
	// Kind is "repetition" ("" in lines from before the log had other
	// kinds).
	Kind string `json:"kind,omitempty"`
	// Settings are the flags that shape a measurement (see [settingsOf]);
	// a log holds one setting only.
	Settings string `json:"settings"`
	// Code is the code the repetition measured ([codeHash]); Check is set
	// on a check repetition, the first on its code (see [checkProblems]).
	Code  string `json:"code"`
	Check bool   `json:"check,omitempty"`
	// Rep counts from 1.
	Rep     int         `json:"rep"`
	Time    time.Time   `json:"time"`
	Machine string      `json:"machine"`
	Cells   []loggedRep `json:"cells"`
}

// loggedRep is one cell's share of a repetition: its outcome and wall
// time (in nanoseconds) per workload. Lines from before each workload had
// an invocation of its own hold WallNs, the wall time of one invocation
// that measured all the workloads, instead of WallsNs.
type loggedRep struct {
	Scenario string             `json:"scenario"`
	Method   string             `json:"method"`
	Outcomes map[string]outcome `json:"outcomes"`
	WallsNs  map[string]int64   `json:"walls_ns,omitempty"`
	WallNs   int64              `json:"wall_ns,omitempty"`
}

// walls is lc's wall times per workload; none for a line of one joint
// invocation.
func (lc loggedRep) walls() map[string]time.Duration {
	ws := map[string]time.Duration{}
	for w, ns := range lc.WallsNs {
		ws[w] = time.Duration(ns)
	}
	return ws
}

// repKind is the "kind" of a repetition's line.
const repKind = "repetition"

// codeHash names the code a table measures: the first 12 hex digits of
// the SHA-256 of base, the base build, which holds benchkit and the
// workloads.
func codeHash(base string) (string, error) {
	b, err := os.ReadFile(base)
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256(b)
	return fmt.Sprintf("%x", sum[:6]), nil
}

// settingsOf names what a repetition's numbers depend on beyond the
// machine and the code (which each repetition names itself): every flag
// except -r, -timeout, the truth's and the output files.
func settingsOf(c config) string {
	return fmt.Sprintf("-benchtime %s -rounds %s -count %d -load %d -methods %s -scenarios %s -workloads %s",
		c.benchtime, roundsSetting(c), c.count, c.load, strings.Join(c.methods, ","), strings.Join(c.scenarios, ","),
		strings.Join(c.workloads, ","))
}

// oldWorkloads are the workloads of the logs from before -workloads,
// measured together in one invocation.
const oldWorkloads = "Compute,Alloc"

// splitOldSettings reads the settings of a line from before the code left
// them ("code <hash> -benchtime ..."): it returns the hash and the
// settings as [settingsOf] names them now, with the -workloads those
// tables measured. Other settings come back as they are, with code "".
func splitOldSettings(settings string) (code, rest string) {
	after, ok := strings.CutPrefix(settings, "code ")
	if !ok {
		return "", settings
	}
	code, rest, _ = strings.Cut(after, " ")
	if !strings.Contains(rest, " -workloads ") {
		rest += " -workloads " + oldWorkloads
	}
	return code, rest
}

// roundsSetting is -rounds as the settings name it: the number when
// given (rounds and lockstep both ran that many), else the rounds of
// rounds pairing and that lockstep chose its own.
func roundsSetting(c config) string {
	if c.roundsSet {
		return strconv.Itoa(c.rounds)
	}
	return fmt.Sprintf("(rounds %d, lockstep adaptive)", c.rounds)
}

// logRead is what a log held: how many repetitions, when the first and
// the last began, on which machines and which code, in the order first
// seen, and how many held one wall time for all workloads (see
// [loggedRep]); and the last truth measured with the table's truth flags,
// nil for none.
type logRead struct {
	n           int
	first, last time.Time
	machines    []machineReps
	codes       codeSpan
	joint       int
	truth       *truthLine
}

// codeSpan counts repetitions by the code they measured, in the order
// first seen.
type codeSpan []codeReps

// codeReps counts the repetitions measured on one code, and says whether
// the first of them was a check.
type codeReps struct {
	code    string
	n       int
	checked bool
}

// add counts a repetition of code, a check repetition if check.
func (s *codeSpan) add(code string, check bool) {
	i := slices.IndexFunc(*s, func(c codeReps) bool { return c.code == code })
	if i < 0 {
		i, *s = len(*s), append(*s, codeReps{code: code, checked: check})
	}
	(*s)[i].n++
}

// has reports whether some repetition measured code.
func (s codeSpan) has(code string) bool {
	return slices.ContainsFunc(s, func(c codeReps) bool { return c.code == code })
}

// describe says which code the repetitions measured, for the footer:
// "the repetitions measured code X" for one, "the repetitions span code
// hashes X (20), Y (3, after a check)" for several.
func (s codeSpan) describe() string {
	if len(s) == 1 {
		return "the repetitions measured code " + s[0].code
	}
	return "the repetitions span code hashes " + s.list()
}

// list names each code with its repetitions: "X (20), Y (3, after a
// check)".
func (s codeSpan) list() string {
	var parts []string
	for _, c := range s {
		after := ""
		if c.checked {
			after = ", after a check"
		}
		parts = append(parts, fmt.Sprintf("%s (%d%s)", c.code, c.n, after))
	}
	return strings.Join(parts, ", ")
}

// machineReps counts the repetitions measured on one machine, named by
// its hardware ([harness.MachineHardware]).
type machineReps struct {
	hardware string
	n        int
}

// add counts repetition l.
func (r *logRead) add(l logged) {
	if r.n == 0 {
		r.first = l.Time
	}
	r.n, r.last = r.n+1, l.Time
	r.codes.add(l.Code, l.Check)
	if slices.ContainsFunc(l.Cells, func(lc loggedRep) bool { return len(lc.WallsNs) == 0 }) {
		r.joint++
	}
	h := harness.MachineHardware(l.Machine)
	i := slices.IndexFunc(r.machines, func(m machineReps) bool { return m.hardware == h })
	if i < 0 {
		i, r.machines = len(r.machines), append(r.machines, machineReps{hardware: h})
	}
	r.machines[i].n++
}

// describe says what was read from path, for the table's footer: how many
// repetitions, over which hours, on which machines.
func (r logRead) describe(path string) string {
	var on []string
	for _, m := range r.machines {
		on = append(on, fmt.Sprintf("%s (%d)", m.hardware, m.n))
	}
	const at = "2006-01-02 15:04 UTC"
	s := fmt.Sprintf("%d of the repetitions read from %s, begun between %s and %s, on %s", r.n, path,
		r.first.Format(at), r.last.Format(at), strings.Join(on, " and "))
	if r.joint > 0 {
		s += fmt.Sprintf("; %d of them measured all workloads in one invocation, and their wall times are left out of wall / rep", r.joint)
	}
	return s
}

// readLog adds the repetitions logged in path to cells and returns what
// it read, with the last truth line whose truth flags are truthSet (a
// truth of other flags is passed over). A missing file holds none. It
// fails on a line it cannot read, on settings other than settings and on
// a cell the table does not have.
func readLog(path, settings, truthSet string, cells []*cell) (logRead, error) {
	var r logRead
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return r, nil
	}
	if err != nil {
		return r, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for line := 1; sc.Scan(); line++ {
		if err := r.readLine(sc.Bytes(), settings, truthSet, cells); err != nil {
			return r, fmt.Errorf("%s:%d%v", path, line, err)
		}
	}
	return r, sc.Err()
}

// readLine reads one line of a log (see [readLog]); its errors start with
// ": " or " ", to follow the line's place.
func (r *logRead) readLine(b []byte, settings, truthSet string, cells []*cell) error {
	var kind struct {
		Kind     string `json:"kind"`
		Settings string `json:"settings"`
	}
	if err := json.Unmarshal(b, &kind); err != nil {
		return fmt.Errorf(": %v (delete the file to start again)", err)
	}
	code, kindSettings := splitOldSettings(kind.Settings)
	if kindSettings != settings {
		return fmt.Errorf(" was measured with %s, not %s: give those flags or another -log file", kindSettings, settings)
	}
	switch kind.Kind {
	case truthKind:
		var t truthLine
		if err := json.Unmarshal(b, &t); err != nil {
			return fmt.Errorf(": %v (delete the file to start again)", err)
		}
		if t.Truth == truthSet {
			r.truth = &t
		}
		return nil
	case repKind, "":
		var l logged
		if err := json.Unmarshal(b, &l); err != nil {
			return fmt.Errorf(": %v (delete the file to start again)", err)
		}
		if code != "" {
			l.Code = code
		}
		for _, lc := range l.Cells {
			c := findCell(cells, lc.Scenario, lc.Method)
			if c == nil {
				return fmt.Errorf(": the table has no cell %s %s", lc.Scenario, lc.Method)
			}
			c.add(lc.Outcomes, lc.walls())
		}
		r.add(l)
		return nil
	}
	return fmt.Errorf(": a line of kind %q, which this table does not know (delete the file to start again)", kind.Kind)
}

// appendLog appends the line l (a repetition or a truth) to path,
// creating the file if needed.
func appendLog(path string, l any) error {
	b, err := json.Marshal(l)
	if err != nil {
		return err
	}
	f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	if _, err := f.Write(append(b, '\n')); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// outcomeJSON is an outcome as a log line holds it: a NaN as null (or
// left out), lockstep's fields left out elsewhere.
type outcomeJSON struct {
	Verdict string   `json:"verdict"`
	Delta   *float64 `json:"delta_pct"`
	Lo      *float64 `json:"lo_pct,omitempty"` // nil: no interval
	Hi      *float64 `json:"hi_pct,omitempty"`
	Triples int      `json:"triples,omitempty"`
	Stop    string   `json:"stop,omitempty"`
	Between *float64 `json:"between_pct,omitempty"`
	Within  *float64 `json:"within_pct,omitempty"`
	Mutator *float64 `json:"mutator_pct,omitempty"`
	Cycles  *float64 `json:"cycles_pct,omitempty"`
}

func (o outcome) MarshalJSON() ([]byte, error) {
	j := outcomeJSON{Verdict: o.verdict, Delta: finite(o.delta), Triples: o.triples, Stop: o.stop,
		Between: finite(o.between), Within: finite(o.within), Mutator: finite(o.mutator), Cycles: finite(o.cycles)}
	if o.hasInterval {
		j.Lo, j.Hi = finite(o.lo), finite(o.hi)
	}
	return json.Marshal(j)
}

func (o *outcome) UnmarshalJSON(b []byte) error {
	var j outcomeJSON
	if err := json.Unmarshal(b, &j); err != nil {
		return err
	}
	*o = outcome{verdict: j.Verdict, delta: orNaN(j.Delta), lo: orNaN(j.Lo), hi: orNaN(j.Hi), hasInterval: j.Lo != nil && j.Hi != nil,
		triples: j.Triples, stop: j.Stop, between: orNaN(j.Between), within: orNaN(j.Within), mutator: orNaN(j.Mutator), cycles: orNaN(j.Cycles)}
	return nil
}

func finite(x float64) *float64 {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return nil
	}
	return &x
}

func orNaN(p *float64) float64 {
	if p == nil {
		return math.NaN()
	}
	return *p
}
