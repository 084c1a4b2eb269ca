package against

import "slices"

// scenario is one build of internal/accuracy/workloads/against that the
// table compares with the base build, as if it were another commit.
type scenario struct {
	name  string // as the table shows it
	alias string // as -scenarios names it
	bin   string // the binary's name (base.test is the base itself)
	flag  string // the go test -c flag that makes the build, "" for none
	// nominal is the change the build was made to have, in percent of
	// the base's cost per op: 0 for identical code (an A/A scenario),
	// positive otherwise. Verdicts are tallied against its sign.
	nominal float64
	// only are the workloads the build changes; nil: all. On the others
	// the build is the base's code and the table leaves them out.
	only []string
}

// allWorkloads are the benchmarks the table can measure, by the name it
// shows (Benchmark<name>), in table order.
var allWorkloads = []string{"Compute", "Map", "Alloc", "AllocLive"}

// allocating are the workloads the bytes5 and mutator5 builds change.
var allocating = []string{"Alloc", "AllocLive"}

// scenarios are every scenario, in table order; defaultScenarios those a
// table measures unless -scenarios says otherwise.
var (
	scenarios = []scenario{
		{name: "A/A", alias: "aa", bin: "base"},
		{name: "A/A rebuilt", alias: "rebuilt", bin: "rebuilt", flag: "-trimpath"},
		{name: "+2%", alias: "plus2", bin: "plus2", flag: "-tags=against_plus2", nominal: 2},
		{name: "+5%", alias: "plus5", bin: "plus5", flag: "-tags=against_plus5", nominal: 5},
		{name: "+25%", alias: "plus25", bin: "plus25", flag: "-tags=against_plus25", nominal: 25},
		{name: "2×", alias: "x2", bin: "x2", flag: "-tags=against_x2", nominal: 100},
		{name: "+5% bytes", alias: "bytes5", bin: "bytes5", flag: "-tags=against_bytes5", nominal: 5, only: allocating},
		{name: "+5% mutator", alias: "mutator5", bin: "mutator5", flag: "-tags=against_mutator5", nominal: 5, only: allocating},
	}
	defaultScenarios = []string{"aa", "rebuilt", "plus2", "plus5"}
)

// scenarioNamed returns the scenario the table shows as name; it panics
// on a name that is none (the table's names come from scenarios).
func scenarioNamed(name string) scenario {
	i := slices.IndexFunc(scenarios, func(s scenario) bool { return s.name == name })
	if i < 0 {
		panic("against: no scenario " + name)
	}
	return scenarios[i]
}

// aa reports whether s is identical code: its true change is 0.
func (s scenario) aa() bool { return s.nominal == 0 }

// measures reports whether the table measures workload w in s.
func (s scenario) measures(w string) bool { return s.only == nil || slices.Contains(s.only, w) }

// scenarioNames returns the names of all scenarios and the alias of each
// name, for pick.
func scenarioNames() (names []string, aliases map[string]string) {
	aliases = map[string]string{}
	for _, s := range scenarios {
		names = append(names, s.name)
		aliases[s.alias] = s.name
	}
	return names, aliases
}
