//go:build !(amd64 || 386)

package env

// cpuidBrand is "" where there is no CPUID instruction: go test's name
// then comes from the operating system.
func cpuidBrand() string { return "" }
