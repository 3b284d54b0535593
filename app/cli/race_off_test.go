//go:build !race

package cli

// raceBuild is true when the tests run under the race detector (see
// race_on_test.go).
const raceBuild = false
