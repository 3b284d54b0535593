//go:build unix

package cputime

import "testing"

// TestProcessCountsWork spins the CPU and checks that the process's CPU
// time grew by about as much, not less than half (another process may
// hold the core, which wall time would count and CPU time does not).
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
