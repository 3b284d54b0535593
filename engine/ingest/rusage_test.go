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

// cpuSeconds returns the CPU time the process has used, user and system,
// garbage collection included. Throughput per CPU-second does not depend
// on how busy the shared machine is, as wall-clock MB/s does.
func cpuSeconds() float64 {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	tv := func(t syscall.Timeval) float64 { return float64(t.Sec) + float64(t.Usec)/1e6 }
	return tv(ru.Utime) + tv(ru.Stime)
}
