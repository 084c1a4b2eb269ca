// Package testflag reads the go test flags that benchkit and control both
// depend on (-test.benchtime and -test.count) from flag.CommandLine, the
// way package testing parses them, with one fallback for both packages:
// an absent or unreadable -test.benchtime is testing's default of 1s, an
// absent or unreadable -test.count is 1. benchkit's own -benchkit.*
// settings are package settings'.
package testflag
