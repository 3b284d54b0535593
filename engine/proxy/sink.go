package proxy

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
)

// FileSink writes records as JSON Lines, one file per conversation
// (<conversation>.jsonl) in a directory that only this user can read, so
// that a follower reads each conversation as it grows.
type FileSink struct {
	dir string
	mu  sync.Mutex
}

// NewFileSink returns a sink writing into dir, which it makes if needed.
func NewFileSink(dir string) (*FileSink, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("proxy: record directory: %w", err)
	}
	return &FileSink{dir: dir}, nil
}

// Dir is where the sink writes.
func (s *FileSink) Dir() string { return s.dir }

// Record appends r to its conversation's file, as one line.
func (s *FileSink) Record(r *Record) error {
	line, err := json.Marshal(r)
	if err != nil {
		return fmt.Errorf("proxy: encode record %d: %w", r.Seq, err)
	}
	line = append(line, '\n')
	s.mu.Lock()
	defer s.mu.Unlock()
	path := filepath.Join(s.dir, safeName(r.Conversation)+".jsonl")
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return fmt.Errorf("proxy: record %d: %w", r.Seq, err)
	}
	if _, err := f.Write(line); err != nil {
		f.Close()
		return fmt.Errorf("proxy: record %d: %w", r.Seq, err)
	}
	return f.Close()
}

// safeName keeps a conversation key to letters, digits, dashes and
// underscores.
func safeName(key string) string {
	out := strings.Map(func(r rune) rune {
		if r == '-' || r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' {
			return r
		}
		return -1
	}, key)
	if out == "" {
		return "unnamed"
	}
	return out
}

// Sinks hands each record to every one of sinks, in order, and returns
// the first error.
type Sinks []Sink

// Record passes r to each sink.
func (ss Sinks) Record(r *Record) error {
	var first error
	for _, s := range ss {
		if err := s.Record(r); err != nil && first == nil {
			first = err
		}
	}
	return first
}
