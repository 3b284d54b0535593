package otlp

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"io"
	"io/fs"
	"os"
)

// SpoolFile is one conversation's spool file as a receiver appends to it:
// the file, the Stream that reads each line appended, and the file's size
// and SHA-256 kept as it grows, so that nothing is read twice.
type SpoolFile struct {
	path   string
	stream *Stream
	sum    hash.Hash
	size   int64
}

// NewSpoolFile returns the spool file at path, which may not exist yet.
// Nothing is read until the first Append.
func NewSpoolFile(path string) *SpoolFile { return &SpoolFile{path: path} }

// Path returns the file's path.
func (f *SpoolFile) Path() string { return f.path }

// Appended is what one Append did: the sessions the line changed, and the
// file's size and hex SHA-256 before and after it. Opened says that the
// file was read whole (the first Append of this SpoolFile), so Before
// describes no state a reader of the file has seen.
type Appended struct {
	Updates               []Update
	BeforeSize, AfterSize int64
	BeforeHash, AfterHash string
	Opened                bool
}

// Append appends line and a newline to the file, creating it private to
// the user, and reads it. On the first Append the file's earlier content
// is read too.
func (f *SpoolFile) Append(line []byte) (Appended, error) {
	var a Appended
	if f.sum == nil {
		if err := f.hashExisting(); err != nil {
			return a, err
		}
	}
	a.BeforeSize, a.BeforeHash = f.size, hex.EncodeToString(f.sum.Sum(nil))
	w, err := os.OpenFile(f.path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600)
	if err != nil {
		return a, err
	}
	data := append(line[:len(line):len(line)], '\n')
	if _, err := w.Write(data); err != nil {
		w.Close()
		return a, err
	}
	if err := w.Close(); err != nil {
		return a, err
	}
	f.sum.Write(data)
	f.size += int64(len(data))
	a.AfterSize, a.AfterHash = f.size, hex.EncodeToString(f.sum.Sum(nil))
	if f.stream == nil {
		f.stream, a.Updates, err = OpenStream(f.path)
		a.Opened = true
	} else {
		a.Updates, err = f.stream.Add(line)
	}
	if err != nil {
		f.stream = nil // read the file again next time
		return a, fmt.Errorf("otlp: read %s: %w", f.path, err)
	}
	return a, nil
}

// hashExisting hashes what the file holds before the first append.
func (f *SpoolFile) hashExisting() error {
	f.sum, f.size = sha256.New(), 0
	r, err := os.Open(f.path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	defer r.Close()
	n, err := io.Copy(f.sum, r)
	f.size = n
	return err
}
