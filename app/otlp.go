package app

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"

	"ctxscope/engine/ingest/otlp"
)

// otlpDir is the directory, in the workspace directory, of the files the
// OTLP receiver keeps: one per conversation, OTLP/JSON lines.
const otlpDir = "otlp"

// otlpReceiver turns OTLP exports into sessions: each export is split by
// conversation, each conversation's part appended to its spool file, and
// the files that grew imported as a followed file's growth is, so the
// session shows and grows live.
type otlpReceiver struct {
	spool *otlp.Spooler
	mu    sync.Mutex // serialises appends to the spool files
}

func newOTLPReceiver() *otlpReceiver { return &otlpReceiver{spool: otlp.NewSpooler()} }

// ReceiveOTLP stores one OTLP/HTTP export request (traces or logs;
// protobuf, or OTLP/JSON when isJSON) and imports the conversations it
// added to. It returns how many spans or log records the export held.
// Records that belong to no trace are not session content and are not
// kept.
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
	paths := make([]string, 0, len(keys))
	a.otlp.mu.Lock()
	for _, k := range keys {
		path := filepath.Join(dir, spoolName(k))
		if err := appendLine(path, groups[k]); err != nil {
			a.otlp.mu.Unlock()
			return 0, fmt.Errorf("otlp: keep %s: %w", k, err)
		}
		paths = append(paths, path)
	}
	a.otlp.mu.Unlock()
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	a.live.importChanged(paths, "")
	return n, nil
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

// appendLine appends data and a newline to the file at path, creating it
// private to the user.
func appendLine(path string, data []byte) error {
	f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600)
	if err != nil {
		return err
	}
	if _, err := f.Write(append(data, '\n')); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
