//go:build unix

package inputfile

import (
	"os"
	"syscall"
)

// openNonBlocking opens path with O_NONBLOCK, so that a FIFO put in place
// of a file after the check opens at once (and is then refused) instead of
// waiting for a writer. Reads of regular files ignore the flag.
func openNonBlocking(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
}
