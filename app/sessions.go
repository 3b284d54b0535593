package app

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"path/filepath"
	"sync"
	"time"

	"ctxscope/app/demo"
	"ctxscope/engine/ingest"
	"ctxscope/engine/report"
	"ctxscope/engine/session"
	"ctxscope/engine/tokens"
)

// Sessions is the bound service for opening sessions and reading their
// timelines. Sessions stay in memory for the life of the process.
type Sessions struct {
	app     *App
	initial string

	mu     sync.Mutex
	open   map[string]*openSession
	order  []string
	demoID string
}

// openSession is a session held in memory with its derived data.
type openSession struct {
	info     SessionInfo
	s        *session.Session
	requests []*session.Request // of the main thread
	mu       sync.Mutex
	ledgers  map[string]*tokens.Ledger
}

// SessionInfo describes an open session.
type SessionInfo struct {
	ID          string         `json:"id"`
	Title       string         `json:"title"`
	Format      session.Format `json:"format"`
	Agent       string         `json:"agent"`
	Source      string         `json:"source"`
	Started     time.Time      `json:"started"`
	Threads     int            `json:"threads"`
	Messages    int            `json:"messages"`
	ToolCalls   int            `json:"toolCalls"`
	Requests    int            `json:"requests"`
	Compactions int            `json:"compactions"`
	Errors      int            `json:"errors"`
	Warnings    int            `json:"warnings"`
	// Diagnostics lists what the importer reported, as "file:line: ..."
	// strings, at most 200.
	Diagnostics []string `json:"diagnostics"`
	Demo        bool     `json:"demo"`
}

func newSessions(a *App, initial string) *Sessions {
	return &Sessions{app: a, initial: initial, open: map[string]*openSession{}}
}

// List returns the open sessions, most recently opened first.
func (s *Sessions) List() []SessionInfo {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]SessionInfo, 0, len(s.order))
	for i := len(s.order) - 1; i >= 0; i-- {
		out = append(out, s.open[s.order[i]].info)
	}
	return out
}

// Initial opens the session to show first: the file named on the command
// line, or else the bundled demo session.
func (s *Sessions) Initial() (SessionInfo, error) {
	if s.initial != "" {
		return s.OpenPath(s.initial)
	}
	return s.OpenDemo()
}

// OpenPath imports the session file at path. Opening the same path again
// re-reads it.
func (s *Sessions) OpenPath(path string) (SessionInfo, error) {
	if path == "" {
		return SessionInfo{}, fmt.Errorf("no file given")
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return SessionInfo{}, err
	}
	sess, err := ingest.ReadFile(abs)
	if err != nil {
		return SessionInfo{}, err
	}
	return s.add(idFor("path:"+abs), sess, false), nil
}

// OpenDialog asks the user for a file with the desktop file dialog and
// opens it. It returns an empty SessionInfo when the user cancels.
func (s *Sessions) OpenDialog() (SessionInfo, error) {
	path, err := s.app.platform.OpenFileDialog("Open an agent session")
	if err != nil || path == "" {
		return SessionInfo{}, err
	}
	return s.OpenPath(path)
}

// OpenDemo opens the bundled demo session.
func (s *Sessions) OpenDemo() (SessionInfo, error) {
	sess, err := ingest.Read(bytes.NewReader(demo.Session), demo.Name)
	if err != nil {
		return SessionInfo{}, fmt.Errorf("demo session: %w", err)
	}
	return s.add(idFor("demo"), sess, true), nil
}

// Import reads a session from r, for hosts that receive file content
// (serve mode's upload). It is not bound: the frontend never sends session
// content through a service method.
func (s *Sessions) Import(r io.Reader, name string) (SessionInfo, error) {
	h := sha256.New()
	sess, err := ingest.Read(io.TeeReader(r, h), name)
	if err != nil {
		return SessionInfo{}, err
	}
	return s.add("u"+hex.EncodeToString(h.Sum(nil))[:15], sess, false), nil
}

// add registers a session under id, replacing an earlier one.
func (s *Sessions) add(id string, sess *session.Session, isDemo bool) SessionInfo {
	o := &openSession{s: sess, ledgers: map[string]*tokens.Ledger{}}
	if main := sess.Main(); main != nil {
		o.requests = session.BuildRequests(main)
	}
	r := report.Build(sess)
	o.info = SessionInfo{
		ID: id, Title: sess.Title, Format: sess.Format, Agent: sess.Agent, Source: sess.Source,
		Started: sess.Started, Threads: len(sess.Threads), Messages: r.Messages, ToolCalls: r.ToolCalls,
		Requests: len(o.requests), Compactions: len(r.Compactions), Errors: r.Errors, Warnings: r.Warnings,
		Diagnostics: []string{}, Demo: isDemo,
	}
	if o.info.Title == "" {
		o.info.Title = filepath.Base(sess.Source)
	}
	for i, d := range sess.Diagnostics {
		if i == 200 {
			break
		}
		o.info.Diagnostics = append(o.info.Diagnostics, d.String())
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.open[id]; ok {
		for i, x := range s.order {
			if x == id {
				s.order = append(s.order[:i], s.order[i+1:]...)
				break
			}
		}
	}
	s.open[id] = o
	s.order = append(s.order, id)
	s.app.logf("opened %s (%s, %d requests, %d diagnostics)", filepath.Base(sess.Source), sess.Format, len(o.requests), len(sess.Diagnostics))
	return o.info
}

func (s *Sessions) get(id string) (*openSession, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	o, ok := s.open[id]
	if !ok {
		return nil, fmt.Errorf("%w: %q", ErrNotFound, id)
	}
	return o, nil
}

// ledger returns the session's cached ledger for a counter.
func (o *openSession) ledger(counter string) (*tokens.Ledger, error) {
	c, err := tokens.ByName(counter)
	if err != nil {
		return nil, err
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	l, ok := o.ledgers[c.Name()]
	if !ok {
		l = tokens.NewLedger(c)
		o.ledgers[c.Name()] = l
	}
	return l, nil
}

func idFor(key string) string {
	h := sha256.Sum256([]byte(key))
	return hex.EncodeToString(h[:8])
}
