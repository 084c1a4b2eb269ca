// Package textfmt holds the small formatting helpers that benchkit's
// messages and report share, so that a duration or a count reads the same
// wherever it is printed.
package textfmt
