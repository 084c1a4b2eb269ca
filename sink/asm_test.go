package sink_test

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"runtime"
	"strings"
	"testing"
)

// TestAssembly compiles the benchmark bodies in testdata/asm with
// -gcflags=-S and checks, instruction by instruction, which of them still do
// the work. The table holds both outcomes on purpose: the "lost" rows prove
// that the compiler does remove unkept work, so the "kept" rows are not
// passing by accident.
func TestAssembly(t *testing.T) {
	if runtime.GOARCH != "amd64" {
		t.Skipf("assembly assertions are written for amd64 instructions (IMULQ, POPCNTQ); GOARCH is %s", runtime.GOARCH)
	}
	goTool := findGo(t)

	levels := []string{"v1", "v3"}
	for _, level := range levels {
		t.Run("GOAMD64="+level, func(t *testing.T) {
			if level != "v1" && testing.Short() {
				t.Skip("-short: a GOAMD64 level other than v1 may need the standard library rebuilt (about 20 s of CPU with a cold build cache)")
			}
			listing := compileListing(t, goTool, level)
			checkListing(t, listing, level)
		})
	}
}

// mixConst is mix(0xdeadbeef) as the signed immediate the assembler prints
// when the compiler folds the call ($-3293303821363962452). The mix in
// sink_bench_test.go and the one in testdata/asm are the same function.
var mixConst = fmt.Sprintf("$%d", int64(mix(0xdeadbeef)))

func checkListing(t *testing.T, listing map[string][]inst, level string) {
	type test struct {
		fn     string // function name after the package path
		check  func(fn []inst) error
		reason string
	}
	imuls := func(want int) func([]inst) error {
		return func(fn []inst) error {
			if got := count(fn, "IMULQ", ""); got != want {
				return fmt.Errorf("%d IMULQ, want %d", got, want)
			}
			return nil
		}
	}
	tests := []test{
		{"BenchmarkBNDiscard", imuls(0), "b.N loop, result discarded: mix is inlined and removed (the work is lost)"},
		{"BenchmarkBNKeep", imuls(2), "b.N loop with sink.Keep: both multiplications of mix stay"},
		{"BenchmarkLoopBare", imuls(2), "literal for b.Loop(): the compiler keeps the result alive by itself"},
		{"BenchmarkWrapperDiscard", imuls(0), "for k.Loop() wrapper: no compiler keep-alive, the work is lost"},
		{"BenchmarkWrapperKeep", imuls(2), "for k.Loop() wrapper with sink.Keep: the work stays"},
		{"BenchmarkMethodValueDiscard", imuls(0), "loop := b.Loop; for loop(): no compiler keep-alive, the work is lost"},
		{"BenchmarkAndDiscard", imuls(0), "for ok && b.Loop(): no compiler keep-alive, the work is lost"},
		{"BenchmarkEqualTrueDiscard", imuls(0), "for b.Loop() == true: no compiler keep-alive, the work is lost"},
		{"BenchmarkFieldReceiverBare", imuls(2), "for k.B.Loop(): still a b.Loop call, the compiler keeps the result alive"},
		{"BenchmarkAfterLoopDiscard", imuls(0), "a call after the loop's closing brace: not protected, the work is lost"},
		{"BenchmarkClosureDiscard.func1", imuls(0), "func() closure passed to a helper: its body compiles to a bare RET"},
		{"BenchmarkClosureKeep.func1", imuls(2), "func() closure with sink.Keep: the work stays"},
		{"BenchmarkParallelDiscard.func1", imuls(0), "RunParallel pb.Next() loop, result discarded: the work is lost"},
		{"BenchmarkParallelKeep.func1", imuls(2), "RunParallel pb.Next() loop with sink.Keep: the work stays"},
		{"BenchmarkMixConstKeep", func(fn []inst) error {
			if err := imuls(0)(fn); err != nil {
				return err
			}
			if count(fn, "MOVQ", mixConst+",") == 0 {
				return fmt.Errorf("no MOVQ %s (the folded value of mix(0xdeadbeef))", mixConst)
			}
			return nil
		}, "sink.Keep(mix(constant)): folded at compile time, Keep keeps the constant"},
		{"BenchmarkMixOpaqueKeep", func(fn []inst) error {
			if err := imuls(2)(fn); err != nil {
				return err
			}
			if count(fn, "CALL", "sink.Opaque[") != 1 {
				return fmt.Errorf("no CALL to sink.Opaque: it was inlined, so it can no longer hide its result")
			}
			return nil
		}, "input through sink.Opaque: mix runs at run time"},
		{"BenchmarkOnesCountConst", func(fn []inst) error {
			if n := count(fn, "POPCNTQ", ""); n != 0 {
				return fmt.Errorf("%d POPCNTQ, want 0", n)
			}
			if count(fn, "MOVL", "$3,")+count(fn, "MOVQ", "$3,") == 0 {
				return fmt.Errorf("no MOVL/MOVQ $3 (the folded popcount)")
			}
			return nil
		}, "bits.OnesCount(0b10110) inside for b.Loop(): folds to the constant 3"},
		{"BenchmarkOnesCountOpaque", func(fn []inst) error {
			if n := count(fn, "POPCNTQ", ""); n == 0 {
				return fmt.Errorf("no POPCNTQ")
			}
			if n := count(fn, "MOVL", "$3,") + count(fn, "MOVQ", "$3,"); n != 0 {
				return fmt.Errorf("%d MOVL/MOVQ $3: the popcount was folded", n)
			}
			return nil
		}, "bits.OnesCount(sink.Opaque(...)): the popcount runs at run time"},
	}
	for _, tc := range tests {
		fn, ok := listing[tc.fn]
		if !ok {
			t.Errorf("%s: not in the -S listing (functions found: %s)", tc.fn, names(listing))
			continue
		}
		if err := tc.check(fn); err != nil {
			t.Errorf("GOAMD64=%s %s: %v\nexpected: %s\nlisting:\n%s", level, tc.fn, err, tc.reason, dump(fn))
		}
	}
}

// inst is one instruction of a -S listing: "IMULQ" and "DX, CX".
type inst struct{ op, args string }

// count returns how many instructions have opcode op and, when sub is not
// empty, arguments containing sub.
func count(fn []inst, op, sub string) int {
	n := 0
	for _, in := range fn {
		if in.op == op && (sub == "" || strings.Contains(in.args, sub)) {
			n++
		}
	}
	return n
}

func dump(fn []inst) string {
	var b strings.Builder
	for _, in := range fn {
		fmt.Fprintf(&b, "\t%s\t%s\n", in.op, in.args)
	}
	return b.String()
}

func names(listing map[string][]inst) string {
	var s []string
	for name := range listing {
		s = append(s, name)
	}
	return strings.Join(s, " ")
}

const asmPkg = "github.com/benchkit/go-benchkit/sink/testdata/asm."

var (
	// "github.com/.../asm.BenchmarkX STEXT size=..." starts a function.
	headerRE = regexp.MustCompile(`^(\S+) STEXT\b`)
	// "\t0x0014 00020 (/path/asm.go:24)\tIMULQ\tBX, DX" is an instruction;
	// the hex-dump lines that follow each function do not match.
	instRE = regexp.MustCompile(`^\t0x[0-9a-f]+ \d{5} \([^)]*\)\t(\S+)(?:\t(.*))?$`)
)

// compileListing runs go build -gcflags=-S on testdata/asm for GOARCH=amd64
// at the given GOAMD64 level and returns each function's instructions, keyed
// by the name after the package path (BenchmarkX, BenchmarkX.func1).
func compileListing(t *testing.T, goTool, level string) map[string][]inst {
	t.Helper()
	cmd := exec.Command(goTool, "build", "-gcflags=-S", "./testdata/asm")
	cmd.Env = childEnv("GOARCH=amd64", "GOAMD64="+level)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("sink: %s failed: %v\n%s", strings.Join(cmd.Args, " "), err, out)
	}
	listing := map[string][]inst{}
	var cur string
	sc := bufio.NewScanner(strings.NewReader(string(out)))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if m := headerRE.FindStringSubmatch(line); m != nil {
			cur = strings.TrimPrefix(m[1], asmPkg)
			if cur == m[1] {
				cur = "" // a function of another package (none expected)
			}
			continue
		}
		if m := instRE.FindStringSubmatch(line); m != nil && cur != "" {
			listing[cur] = append(listing[cur], inst{m[1], m[2]})
		}
	}
	if len(listing) == 0 {
		t.Fatalf("sink: %s printed no assembly listing (is the build cached without its output? try go clean -cache):\n%s",
			strings.Join(cmd.Args, " "), out)
	}
	return listing
}

// childEnv is the test's environment without the variables that would change
// what the child go command builds (GOFLAGS could carry -race, -cover or
// -gcflags), plus set.
func childEnv(set ...string) []string {
	var env []string
	for _, kv := range os.Environ() {
		switch k, _, _ := strings.Cut(kv, "="); k {
		case "GOFLAGS", "GOARCH", "GOAMD64", "GOOS", "GOEXPERIMENT":
			continue
		}
		env = append(env, kv)
	}
	return append(env, set...)
}

// findGo returns the go command on $PATH, and skips the test when there is
// none. Under go test that is the toolchain running the test: since Go 1.19
// go test puts its own GOROOT/bin first on the test's $PATH.
func findGo(t *testing.T) string {
	t.Helper()
	p, err := exec.LookPath("go")
	if err != nil {
		t.Skipf("no go command on $PATH, so the benchmark bodies cannot be compiled: %v", err)
	}
	return p
}
