// Package benchname owns a benchmark's name as go test prints it: the
// "-P" suffix of the GOMAXPROCS value a run is printed under, the
// "Benchmark" prefix, and the top-level function. Every part of benchkit
// that makes a printed name, or reads one back, calls it; nothing else
// cuts or appends a suffix.
//
// testing prints a benchmark run at GOMAXPROCS P under b.Name() followed
// by "-P" for every P but 1 ("BenchmarkSum/n=10-2"); b.Name() itself, and
// the -test.bench filter that selects it, carry no suffix. A name may end
// in a dash and digits of its own ("BenchmarkCopy/size-64"), so a suffix
// is only read as one where the GOMAXPROCS values the run could have had
// are known.
package benchname
