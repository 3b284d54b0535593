//go:build unix

package eval

import (
	"syscall"
	"time"
)

// CPUTime returns the process's user and system CPU time so far; on a
// shared machine the difference across a query is a steadier measure
// than wall time, which includes waiting for a core.
func CPUTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
