// Package child runs and serves the child processes that benchkit starts:
// the forks of control.Compare, the cross-build processes of
// benchkit.Main's -benchkit.against, the counts under valgrind, and the
// tools that build a base from a git revision (git, the go command). It
// is the one runner they use.
//
// A parent runs a whole process with [Run] (each with a deadline, its
// standard output and error captured, never copied into the stdout that
// go test parses, its failure an [*Error] that carries the exit status
// and the tail of what it printed), or keeps one alive with [Start] and
// drives it one benchmark run at a time ([Live.Go], the lockstep
// protocol of link.go: the three processes of a triple take turns). [Args]
// selects one benchmark (a fork, a lockstep process); [RunArgs] a whole
// -bench selection run once (a process of -benchkit.against, possibly
// another build of the package). The parent marks the child through the
// environment ([Env]; [EnvResult] names the file the child writes its
// samples to), so that the child measures and hands its result back out
// of band.
//
// A child never outlives its parent: its standard input is a pipe from the
// parent, and [Watch], which the child side calls, exits the process when
// that pipe closes (on every platform); on Linux the kernel also kills the
// child when the parent dies (Pdeathsig). A tool ([Spec].Group) runs in
// a process group of its own on Unix, which a deadline or an interrupt
// kills whole. The parent ends only the
// processes it started, by pid, when a deadline passes or it is
// interrupted ([Interrupted]).
package child
