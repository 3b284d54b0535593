package search

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/index/scorch"
)

// DirName is the index directory's name inside a workspace.
const DirName = "index"

// Internal keys the index keeps beside its documents.
var (
	keyMapping = []byte("ctxscope:mapping") // the mapping version
	keySync    = []byte("ctxscope:sync")    // what of the workspace is indexed
)

// Index is a full-text index over one workspace. Its methods are safe for
// concurrent use; syncs are serialised.
type Index struct {
	dir     string
	idx     bleve.Index
	version string

	mu     sync.Mutex // serialises syncs, rebuilds and Close; guards state
	state  syncState
	closed bool
	// swap guards the idx pointer, which Rebuild replaces, against
	// searches running concurrently with it; searches never wait for a
	// sync, only for a rebuild's swap.
	swap sync.RWMutex
	// facets caches the facet columns of the latest snapshot searched.
	facets facetColumns
	// yield is how a background sync gives way to the user (yield.go).
	yield yielding
}

// Open opens the index in dir, creating it when missing. An index written
// with another mapping version, or one Bleve cannot open, is deleted and
// created empty: [Index.Sync] then fills it from the workspace. Rebuilt
// reports whether that happened. An index another process holds is
// refused within half a second with an [InUseError] that names the
// process; it is never touched.
func Open(dir string) (x *Index, rebuilt bool, err error) {
	x, rebuilt, err = open(dir)
	if err != nil {
		return nil, false, err
	}
	if err := recordHolder(dir); err != nil {
		x.idx.Close()
		return nil, false, fmt.Errorf("search: record the index's holder: %w", err)
	}
	return x, rebuilt, nil
}

func open(dir string) (x *Index, rebuilt bool, err error) {
	version, err := MappingVersion()
	if err != nil {
		return nil, false, fmt.Errorf("search: mapping: %w", err)
	}
	x = &Index{dir: dir, version: version}
	idx, err := bleve.OpenUsing(dir, boltConfig())
	switch {
	case isLockTimeout(err):
		return nil, false, &InUseError{Dir: filepath.Dir(dir), Holder: readHolder(dir)}
	case err == nil:
		v, verr := idx.GetInternal(keyMapping)
		if verr == nil && string(v) == version {
			x.idx = idx
			return x, false, x.loadState()
		}
		idx.Close()
		rebuilt = true
	case errors.Is(err, bleve.ErrorIndexPathDoesNotExist), isEmptyDir(dir):
	default:
		rebuilt = true
	}
	if err := x.create(); err != nil {
		return nil, false, err
	}
	return x, rebuilt, nil
}

// create replaces whatever is in the index directory with a new, empty
// index of the current mapping.
func (x *Index) create() error {
	if err := removeIndexDir(x.dir); err != nil {
		return err
	}
	im, err := newMapping()
	if err != nil {
		return fmt.Errorf("search: mapping: %w", err)
	}
	idx, err := bleve.NewUsing(x.dir, im, scorch.Name, scorch.Name, boltConfig())
	if err != nil {
		return fmt.Errorf("search: create index in %s: %w", x.dir, err)
	}
	if err := idx.SetInternal(keyMapping, []byte(x.version)); err != nil {
		idx.Close()
		return fmt.Errorf("search: create index: %w", err)
	}
	// Bleve writes its metadata as the umask allows; the index holds
	// session text and is the user's alone.
	if err := os.Chmod(filepath.Join(x.dir, "index_meta.json"), 0o600); err != nil && !errors.Is(err, os.ErrNotExist) {
		idx.Close()
		return fmt.Errorf("search: make the index private: %w", err)
	}
	x.idx, x.state = idx, newSyncState()
	return nil
}

// boltConfig makes Bleve wait at most lockWait for the index's lock.
func boltConfig() map[string]any { return map[string]any{"bolt_timeout": lockWait.String()} }

// isEmptyDir reports whether dir exists and holds nothing.
func isEmptyDir(dir string) bool {
	entries, err := os.ReadDir(dir)
	return err == nil && len(entries) == 0
}

// removeIndexDir deletes an index directory, refusing a directory that
// does not look like a Bleve index so that a mistaken path costs nothing.
func removeIndexDir(dir string) error {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("search: %w", err)
	}
	if len(entries) == 0 {
		return nil
	}
	if _, err := os.Stat(filepath.Join(dir, "index_meta.json")); err != nil {
		return fmt.Errorf("search: %s is not an index; not deleting it", dir)
	}
	return os.RemoveAll(dir)
}

// Rebuild empties the index; the next [Index.Sync] indexes the whole
// workspace again.
func (x *Index) Rebuild() error {
	x.mu.Lock()
	defer x.mu.Unlock()
	x.swap.Lock()
	defer x.swap.Unlock()
	if err := x.idx.Close(); err != nil {
		return fmt.Errorf("search: close: %w", err)
	}
	return x.create()
}

// Close closes the index. Closing it again does nothing.
func (x *Index) Close() error {
	x.mu.Lock()
	defer x.mu.Unlock()
	if x.closed {
		return nil
	}
	x.closed = true
	x.swap.Lock()
	defer x.swap.Unlock()
	err := x.idx.Close()
	releaseHolder(x.dir)
	return err
}

// DocCount returns the number of indexed documents.
func (x *Index) DocCount() (uint64, error) {
	x.swap.RLock()
	defer x.swap.RUnlock()
	return x.idx.DocCount()
}

// Version returns the mapping version the index was built with.
func (x *Index) Version() string { return x.version }

// Add indexes docs in one batch, replacing documents with the same ids.
func (x *Index) Add(docs []Doc) error {
	x.swap.RLock()
	defer x.swap.RUnlock()
	b := x.idx.NewBatch()
	for i := range docs {
		if err := b.Index(docs[i].ID, docs[i].fields()); err != nil {
			return fmt.Errorf("search: index %s: %w", docs[i].ID, err)
		}
	}
	return x.idx.Batch(b)
}

func (x *Index) loadState() error {
	raw, err := x.idx.GetInternal(keySync)
	if err != nil {
		return fmt.Errorf("search: read sync state: %w", err)
	}
	x.state = newSyncState()
	if len(raw) == 0 {
		return nil
	}
	if err := json.Unmarshal(raw, &x.state); err != nil {
		return fmt.Errorf("search: read sync state: %w", err)
	}
	return nil
}
