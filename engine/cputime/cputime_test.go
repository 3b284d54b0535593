//go:build unix

package cputime

import "testing"

// TestProcessCountsWork spins the CPU for 200M iterations and checks that
// the process's CPU time grew by at least 20 ms, a fraction of what the
// loop costs, so that a counter that does not move fails.
func TestProcessCountsWork(t *testing.T) {
	start, ok := Process()
	if !ok {
		t.Fatal("not measured on a unix")
	}
	x := 0
	for i := range 200_000_000 {
		x += i % 7
	}
	end, _ := Process()
	if x == 0 || end-start < 20_000_000 {
		t.Errorf("%v of CPU time for 200M iterations", end-start)
	}
}
