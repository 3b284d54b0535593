package mcprecall

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"ctxscope/engine/debug"
	"ctxscope/engine/ingest"
	"ctxscope/engine/memory/code"
	"ctxscope/engine/recall"
)

// Records is the conversation the tools answer about: a record file the
// proxy writes in Dir, the one named Conversation, or else the one written
// last (the agent that asks is the one whose requests just passed).
type Records struct {
	Dir          string
	Conversation string
	// Params are the policy, τ and counter the proxy evicts with.
	Params debug.Params
	// Options are the recall's options (its counter and BM25 index).
	Options recall.Options

	mu    sync.Mutex
	state *state
}

// state is what one version of a record file gives: the replay's
// lifecycle at its last request and the recall index over its memory.
type state struct {
	path    string
	size    int64
	mod     time.Time
	life    *debug.Lifecycle
	index   *recall.Index
	request int // the last request, 0-based
}

// errNoRecords says that no conversation has been recorded yet.
var errNoRecords = errors.New("no conversation has passed through the ctxscope proxy yet")

// file returns the record file to read.
func (r *Records) file() (string, os.FileInfo, error) {
	if r.Conversation != "" {
		p := filepath.Join(r.Dir, r.Conversation+".jsonl")
		info, err := os.Stat(p)
		if err != nil {
			return "", nil, fmt.Errorf("conversation %s: %w", r.Conversation, err)
		}
		return p, info, nil
	}
	entries, err := os.ReadDir(r.Dir)
	if err != nil {
		return "", nil, fmt.Errorf("records: %w", err)
	}
	var (
		best     string
		bestInfo os.FileInfo
	)
	for _, e := range entries {
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".jsonl") {
			continue
		}
		info, err := e.Info()
		if err != nil || !info.Mode().IsRegular() {
			continue
		}
		if bestInfo == nil || info.ModTime().After(bestInfo.ModTime()) {
			best, bestInfo = filepath.Join(r.Dir, e.Name()), info
		}
	}
	if bestInfo == nil {
		return "", nil, errNoRecords
	}
	return best, bestInfo, nil
}

// current returns the state of the conversation as its file now stands,
// rebuilt when the file changed since the last call.
func (r *Records) current(ctx context.Context) (*state, error) {
	path, info, err := r.file()
	if err != nil {
		return nil, err
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if s := r.state; s != nil && s.path == path && s.size == info.Size() && s.mod.Equal(info.ModTime()) {
		return s, nil
	}
	sess, err := ingest.ReadFile(path)
	if err != nil {
		return nil, err
	}
	rep, err := debug.New(ctx, sess, r.Params, nil)
	if err != nil {
		return nil, err
	}
	life, err := rep.Lifecycle(r.Params)
	if err != nil {
		return nil, err
	}
	if life.Requests == 0 {
		return nil, errNoRecords
	}
	mem := code.ReadSession(sess.ID, sess, nil)
	x, err := recall.NewIndex(ctx, mem, rep.Thread, r.Params.Thread, r.Options)
	if err != nil {
		return nil, err
	}
	r.state = &state{path: path, size: info.Size(), mod: info.ModTime(), life: life, index: x, request: life.Requests - 1}
	return r.state, nil
}
