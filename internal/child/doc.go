// Package child runs and serves the child processes that benchkit starts:
// the forks of control.Compare and the cross-build runs of benchkit.Main.
// It is the one runner both use.
//
// A parent re-executes a test binary with [Command]'s arguments and runs it
// with [Run]: one process at a time, each with a deadline, its standard
// output and error captured (never copied into the stdout that go test
// parses), its failure returned as an error that carries the exit status
// and the tail of what it printed. [Args] selects one benchmark (a fork);
// [RunArgs] a whole -bench selection run once (a process of
// -benchkit.against, possibly another build of the package). The parent marks the child through the
// environment ([EnvResult] names a file the child writes its samples to),
// so that the child measures and hands its result back out of band.
//
// A child never outlives its parent: its standard input is a pipe from the
// parent, and [Watch], which the child side calls, exits the process when
// that pipe closes (on every platform); on Linux the kernel also kills the
// child when the parent dies (Pdeathsig). The parent ends only the process
// it started, by pid, when the deadline passes.
package child
