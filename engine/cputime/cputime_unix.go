//go:build unix

// Package cputime measures the CPU time this process has used, user and
// system. On a machine other processes share, wall time measures the
// neighbours as much as the code; benchmarks report CPU time next to it,
// and serve's Server-Timing says it for every call.
package cputime

import (
	"syscall"
	"time"
)

// Process returns the CPU time this process has used, and whether this
// platform measures it.
func Process() (time.Duration, bool) {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0, false
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), true
}
