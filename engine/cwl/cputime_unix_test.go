//go:build unix

package cwl

import (
	"syscall"
	"time"
)

// cpuTime returns the process's user and system CPU time. Benchmarks
// report it per operation next to wall time, because on a shared machine
// wall time measures the neighbours as much as the code.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
