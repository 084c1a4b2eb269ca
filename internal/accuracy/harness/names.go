package harness

// TrimProcs returns a benchmark's name as go test prints it without its
// -procs suffix: the "-<procs>" go test appends when GOMAXPROCS is not 1,
// a dash and one or more decimal digits ending the name.
// "Sum/n=1-2" gives "Sum/n=1", "Sum/n=1-x" and "Sum/n=1" are returned
// unchanged, and so is a name that is only the suffix ("-2"). A name
// whose own last part ends in a dash and digits, printed with GOMAXPROCS
// 1 (no suffix), cannot be told from one with a suffix and loses them:
// go test's names are ambiguous there, as golang.org/x/perf/benchfmt
// reads them.
func TrimProcs(name string) string {
	i := len(name)
	for i > 0 && '0' <= name[i-1] && name[i-1] <= '9' {
		i--
	}
	if i == len(name) || i < 2 || name[i-1] != '-' {
		return name
	}
	return name[:i-1]
}
