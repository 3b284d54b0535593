//go:build race

package cli

// raceBuild is true when the tests run under the race detector, whose
// shadow memory multiplies what a process holds (5 to 10 times, by the
// Go documentation): memory bounds on child processes (the test binary
// run again) allow for it.
const raceBuild = true
