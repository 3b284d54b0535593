//go:build unix

package graphviz

import (
	"syscall"
	"time"
)

// processCPU returns the CPU time (user and system) this process has used,
// which, unlike wall time, other processes on a shared machine hardly
// change.
func processCPU() (time.Duration, bool) {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0, false
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), true
}
