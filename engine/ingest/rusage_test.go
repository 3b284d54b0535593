package ingest_test

import "syscall"

type runtimeRusage = syscall.Rusage

// maxRSS returns the process's peak resident set size in bytes (Linux
// reports it in KiB).
func maxRSS(ru *syscall.Rusage) int64 {
	if syscall.Getrusage(syscall.RUSAGE_SELF, ru) != nil {
		return 0
	}
	return ru.Maxrss << 10
}
