package app

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"sync/atomic"

	"ctxscope/engine/ingest/otlp"
	"ctxscope/engine/store"
)

// otlpDir is the directory, in the workspace directory, of the files the
// OTLP receiver keeps: one per conversation, OTLP/JSON lines.
const otlpDir = "otlp"

// otlpReceiver turns OTLP exports into sessions: each export is split by
// conversation, each conversation's part appended to its spool file and
// read as it is appended (otlp.SpoolFile), and what it changed stored
// (store.Grow), so that an export costs what it adds, not its
// conversation. A file read for the first time, or whose stored copy is
// not the one its reader grew, is imported whole.
type otlpReceiver struct {
	spool *otlp.Spooler
	mu    sync.Mutex // guards files and used
	files map[string]*spoolFile
	used  uint64 // a clock for the files' last use
	// notices gathers the sessions changed since the frontend was last
	// told.
	notices *notices
	// wholeImports counts the spool files imported whole (read for the
	// first time, or stored otherwise than their reader grew them).
	wholeImports atomic.Int64
}

// spoolFile is one conversation's spool file, its appends and their
// storing serialised.
type spoolFile struct {
	mu   sync.Mutex
	file *otlp.SpoolFile
	used uint64
}

// maxSpoolFiles bounds the spool files the receiver holds read; the least
// recently used beyond it is dropped, and read whole again if its
// conversation goes on.
const maxSpoolFiles = 256

func newOTLPReceiver() *otlpReceiver {
	return &otlpReceiver{spool: otlp.NewSpooler(), files: map[string]*spoolFile{}}
}

// ReceiveOTLP stores one OTLP/HTTP export request (traces or logs;
// protobuf, or OTLP/JSON when isJSON) and the sessions of the
// conversations it added to. It returns how many spans or log records the
// export held. Records that belong to no trace are not session content and
// are not kept.
func (a *App) ReceiveOTLP(ctx context.Context, sig otlp.Signal, body []byte, isJSON bool) (int, error) {
	groups, n, err := a.otlp.spool.Split(sig, body, isJSON)
	if err != nil {
		return 0, err
	}
	dir := filepath.Join(a.ws.Store.Dir(), otlpDir)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return 0, err
	}
	keys := make([]string, 0, len(groups))
	for k := range groups {
		if k != "" {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	var changes []store.SessionChange
	for _, k := range keys {
		if err := ctx.Err(); err != nil {
			return 0, err
		}
		c, err := a.receiveConversation(ctx, a.otlp.file(filepath.Join(dir, spoolName(k))), groups[k])
		if err != nil {
			return 0, fmt.Errorf("otlp: keep %s: %w", k, err)
		}
		changes = append(changes, c...)
	}
	a.index.request()
	a.otlp.notices.add(changes)
	return n, nil
}

// receiveConversation appends one conversation's part of an export to
// its spool file and stores what it changed: the growth its reader read,
// or, for a file read whole or stored otherwise, an import of the file.
func (a *App) receiveConversation(ctx context.Context, f *spoolFile, line []byte) ([]store.SessionChange, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	ap, err := f.file.Append(line)
	if err == nil && !ap.Opened {
		res, err := a.ws.Store.Grow(ctx, store.SpoolGrowth(f.file.Path(), ap))
		if err == nil {
			return res.Sessions, nil
		}
		if !errors.Is(err, store.ErrStale) {
			return nil, err
		}
	}
	// Read whole, stale, or not readable as it grew: the importer says.
	a.otlp.wholeImports.Add(1)
	results, errs := a.ws.ImportUnindexed(ctx, []string{f.file.Path()})
	if len(errs) > 0 {
		return nil, errs[0]
	}
	var out []store.SessionChange
	for _, r := range results {
		out = append(out, r.Sessions...)
	}
	return out, nil
}

// file returns the spool file at path, dropping the least recently used
// beyond maxSpoolFiles.
func (r *otlpReceiver) file(path string) *spoolFile {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.used++
	f := r.files[path]
	if f == nil {
		f = &spoolFile{file: otlp.NewSpoolFile(path)}
		r.files[path] = f
		if len(r.files) > maxSpoolFiles {
			oldest := ""
			for p, g := range r.files {
				if p != path && (oldest == "" || g.used < r.files[oldest].used) {
					oldest = p
				}
			}
			delete(r.files, oldest)
		}
	}
	f.used = r.used
	return f
}

// spoolName is the file name of a conversation's spool: its id made safe
// for a file name, with a hash of the whole id so that ids differing only
// in unsafe characters do not share a file.
func spoolName(key string) string {
	safe := strings.Map(func(r rune) rune {
		if r == '-' || r == '_' || r == '.' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' {
			return r
		}
		return '-'
	}, key)
	if len(safe) > 64 {
		safe = safe[:64]
	}
	h := sha256.Sum256([]byte(key))
	return strings.Trim(safe, ".-") + "-" + hex.EncodeToString(h[:4]) + ".otlp.jsonl"
}
