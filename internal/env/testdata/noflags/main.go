// Command noflags checks that importing internal/env (which imports testing
// for testing.CoverMode) registers no command-line flags, and prints the
// live facts and warnings:  go run ./internal/env/testdata/noflags
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/benchkit/go-benchkit/internal/env"
)

func main() {
	n := 0
	flag.VisitAll(func(f *flag.Flag) { n++; fmt.Println("registered flag:", f.Name) })
	s := env.Probe()
	for _, f := range s.Facts() {
		fmt.Printf("%-15s %s\n", f.Name, f.Value)
	}
	for _, w := range s.Warnings() {
		fmt.Printf("warning: %s\n", w.Message)
	}
	fmt.Printf("%d flags registered\n", n)
	if n != 0 {
		os.Exit(1)
	}
}
