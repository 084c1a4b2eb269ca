// Package testbin builds the test binary of a testdata package for the
// end-to-end tests of benchkit's packages (go test -c, with the ".exe"
// suffix on windows) and runs it with a deadline. Only tests import it.
package testbin
