//go:build !unix

// Package cputime measures the CPU time this process has used; this
// platform does not.
package cputime

import "time"

// Process reports that this platform does not measure CPU time.
func Process() (time.Duration, bool) { return 0, false }
