//go:build !unix

package eval

import "time"

// CPUTime is unavailable on this platform and returns 0.
func CPUTime() time.Duration { return 0 }
