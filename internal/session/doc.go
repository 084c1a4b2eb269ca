// Package session is benchkit.Main's run, without os.Exit: [Run] resolves
// the settings (package settings), checks the output paths, runs the
// warm-up and the tests and benchmarks, counts instructions when asked,
// and builds the report's input and writes every output (text, JSON,
// samples, HTML, exports), adding the package's part to the run's
// summary and HTML index (package summary). It narrows the selection to
// a shard (-benchkit.shard, package shard), and under go test -artifacts
// puts every file no setting names in the package's artifacts. With
// -benchkit.against it hands the benchmarks to package against instead
// and reports its result (against.go). In a child process (a fork, a
// cross-build process, a count) it only runs the benchmarks. [Deps] lets
// tests replace everything Run touches outside its arguments.
package session
