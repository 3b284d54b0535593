// Package inputfile opens the files ctxscope reads from paths a user or a
// session names. Only regular files are read: a named pipe would block
// the reader until some other process writes to it, and a device (a
// symlink to /dev/zero, say) never ends. Such paths are refused at once
// with a message that says what they are.
package inputfile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
)

// ErrNotRegular is returned for a path that is not a regular file.
var ErrNotRegular = errors.New("not a regular file")

// Open opens path for reading, following symbolic links, and returns the
// file with its information. It never blocks: the file is opened without
// waiting for a writer (see openNonBlocking) and refused unless what was
// opened is a regular file.
func Open(path string) (*os.File, fs.FileInfo, error) {
	if info, err := os.Stat(path); err != nil {
		return nil, nil, err
	} else if !info.Mode().IsRegular() {
		return nil, nil, refusal(path, info)
	}
	f, err := openNonBlocking(path)
	if err != nil {
		return nil, nil, err
	}
	info, err := f.Stat() // what was opened, should the path have changed since
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	if !info.Mode().IsRegular() {
		f.Close()
		return nil, nil, refusal(path, info)
	}
	return f, info, nil
}

// ReadAll reads the regular file at path whole, refusing it when it holds
// more than max bytes (no limit when max <= 0).
func ReadAll(path string, max int64) ([]byte, error) {
	f, info, err := Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if max > 0 && info.Size() > max {
		return nil, fmt.Errorf("%s: %d bytes, more than the %d this reads", path, info.Size(), max)
	}
	limit := info.Size() + 1
	if max > 0 {
		limit = max + 1
	}
	data, err := io.ReadAll(io.LimitReader(f, limit))
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	if max > 0 && int64(len(data)) > max {
		return nil, fmt.Errorf("%s: grew beyond the %d bytes this reads", path, max)
	}
	return data, nil
}

// Check reports whether path names a regular file, without opening it.
func Check(path string) error {
	info, err := os.Stat(path)
	if err != nil {
		return err
	}
	if !info.Mode().IsRegular() {
		return refusal(path, info)
	}
	return nil
}

func refusal(path string, info fs.FileInfo) error {
	return fmt.Errorf("%s is %s: %w; only regular files are read", path, kind(info.Mode()), ErrNotRegular)
}

func kind(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe (FIFO)"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a device"
	}
	return "not a regular file"
}
