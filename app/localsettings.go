package app

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"sync"
)

// localSettingsName is the file, in the workspace directory, of the
// settings that belong to whoever runs this app rather than to the
// workspace: who annotates, what they have seen, whether they watch
// their agents' folders. When the workspace is a PostgreSQL database that
// several people's servers share, each keeps their own.
const localSettingsName = "local-settings.json"

// localSettings are the settings of this app's user, in a JSON object
// file beside the search index. A setting missing there is read from the
// workspace, where versions before the shared store kept them all. The
// file is read once (listing sessions asks for each one's seen count)
// and written whole at each change; this app is its only writer.
type localSettings struct {
	app  *App
	path string
	mu   sync.Mutex
	all  map[string]json.RawMessage // nil until read
}

func newLocalSettings(a *App) *localSettings {
	return &localSettings{app: a, path: filepath.Join(a.ws.Store.Dir(), localSettingsName)}
}

// get decodes the setting key into v and reports whether it was found.
func (l *localSettings) get(key string, v any) (bool, error) {
	l.mu.Lock()
	all, err := l.read()
	raw, ok := all[key]
	l.mu.Unlock()
	if err != nil {
		return false, err
	}
	if !ok {
		return l.app.ws.Store.Setting(context.Background(), key, v)
	}
	if err := json.Unmarshal(raw, v); err != nil {
		return false, fmt.Errorf("%s: setting %q: %w", l.path, key, err)
	}
	return true, nil
}

// put stores v under key, replacing the file whole so that a crash
// leaves the old settings or the new ones.
func (l *localSettings) put(key string, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("setting %q: %w", key, err)
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	all, err := l.read()
	if err != nil {
		return err
	}
	next := maps.Clone(all)
	next[key] = b
	out, err := json.MarshalIndent(next, "", "  ")
	if err != nil {
		return err
	}
	if err := writeReplacing(l.path, append(out, '\n')); err != nil {
		return err
	}
	l.all = next
	return nil
}

// writeReplacing writes data to path through a temporary file in the same
// directory, synced and then renamed over path: readers and a crash see
// the old file or the new one, whole.
func writeReplacing(path string, data []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name()) // after the rename there is nothing to remove
	_, err = tmp.Write(data)
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}

// read returns the file's settings, none when there is no file yet,
// reading the file on first use. The caller holds l.mu.
func (l *localSettings) read() (map[string]json.RawMessage, error) {
	if l.all != nil {
		return l.all, nil
	}
	all := map[string]json.RawMessage{}
	b, err := os.ReadFile(l.path)
	if errors.Is(err, os.ErrNotExist) {
		return all, nil
	}
	if err != nil {
		return nil, err
	}
	if err := json.Unmarshal(b, &all); err != nil {
		return nil, fmt.Errorf("%s: %w", l.path, err)
	}
	l.all = all
	return all, nil
}
