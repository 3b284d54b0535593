// Package revcache keeps values derived from stored things that change by
// revision: an opened session by its stored revision, a memory set by its,
// a prepared replay by its session's. Each value is built once per key and
// revision, however many callers ask for it at once.
package revcache

import (
	"context"
	"strings"
	"sync"
	"time"
)

// Cache holds one value per key, as of one revision. A value is built once
// per key and revision: calls that ask for it while it is being built wait
// for that build. A newer revision replaces the older value; beyond max
// keys the least recently used is dropped.
type Cache[V any] struct {
	max int

	mu      sync.Mutex
	entries map[string]*entry[V]
}

// entry is a value being built or built.
type entry[V any] struct {
	rev     int
	done    chan struct{} // closed when the build has ended
	v       V
	err     error
	used    time.Time
	waiters int                // calls waiting for done; guarded by Cache.mu
	cancel  context.CancelFunc // stops the build
}

// Builder builds the value of a key at a revision. old is the value of
// the revision it replaces, when there was one and it was built without
// error, for builders that update rather than start over. ctx ends when
// every caller waiting for the value has given up.
type Builder[V any] func(ctx context.Context, old V, hasOld bool) (V, error)

// New returns a cache that holds at most max keys.
func New[V any](max int) *Cache[V] {
	return &Cache[V]{max: max, entries: map[string]*entry[V]{}}
}

// Get returns the value of key at revision rev, building it when the
// cache does not hold it. The build runs on its own, so that it outlives
// a caller that gives up while others still wait: Get returns ctx's cause
// when ctx ends first, and a build that every caller abandoned is
// cancelled and forgotten. A failed build is forgotten too, so that the
// next call tries again.
func (c *Cache[V]) Get(ctx context.Context, key string, rev int, build Builder[V]) (V, error) {
	c.mu.Lock()
	e := c.entries[key]
	if e == nil || e.rev != rev {
		e = c.startLocked(key, rev, e, build)
	}
	e.used = time.Now()
	e.waiters++
	c.mu.Unlock()
	select {
	case <-e.done:
	case <-ctx.Done():
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	e.waiters--
	select {
	case <-e.done:
	default: // given up before the build ended
		if e.waiters == 0 {
			e.cancel()
			c.dropLocked(key, e)
		}
		var zero V
		return zero, context.Cause(ctx)
	}
	if e.err != nil {
		c.dropLocked(key, e)
	}
	return e.v, e.err
}

// startLocked starts building key at rev in place of old (nil for none)
// and returns the new entry. The caller holds c.mu.
func (c *Cache[V]) startLocked(key string, rev int, old *entry[V], build Builder[V]) *entry[V] {
	var prev V
	hasPrev := false
	if old != nil {
		select {
		case <-old.done:
			prev, hasPrev = old.v, old.err == nil
		default: // an older revision still being built: nothing to start from
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	e := &entry[V]{rev: rev, done: make(chan struct{}), cancel: cancel, used: time.Now()}
	go func() {
		defer close(e.done)
		defer cancel()
		e.v, e.err = build(ctx, prev, hasPrev)
	}()
	c.entries[key] = e
	c.evictLocked()
	return e
}

// Alias holds v, built under another key, as key's value at revision rev
// too, unless key holds (or is building) that revision already: a
// prepared replay asked for with defaults ("") is the one asked for with
// what they resolved to.
func (c *Cache[V]) Alias(key string, rev int, v V) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if e := c.entries[key]; e != nil && e.rev == rev {
		return
	}
	done := make(chan struct{})
	close(done)
	c.entries[key] = &entry[V]{rev: rev, done: done, v: v, used: time.Now(), cancel: func() {}}
	c.evictLocked()
}

// Peek returns the value of key when the cache holds it built, without
// error, at revision rev.
func (c *Cache[V]) Peek(key string, rev int) (V, bool) {
	c.mu.Lock()
	e := c.entries[key]
	c.mu.Unlock()
	var zero V
	if e == nil || e.rev != rev {
		return zero, false
	}
	select {
	case <-e.done:
		return e.v, e.err == nil
	default:
		return zero, false
	}
}

// Forget drops key, and every key that starts with key followed by
// separator when separator is not "" (the prepared replays of a session
// are keyed by the session's key, a separator and their parameters).
func (c *Cache[V]) Forget(key, separator string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.entries, key)
	if separator == "" {
		return
	}
	for k := range c.entries {
		if strings.HasPrefix(k, key+separator) {
			delete(c.entries, k)
		}
	}
}

// dropLocked forgets entry e under key, unless another has replaced it.
// The caller holds c.mu.
func (c *Cache[V]) dropLocked(key string, e *entry[V]) {
	if c.entries[key] == e {
		delete(c.entries, key)
	}
}

// evictLocked drops the least recently used keys beyond max. The caller
// holds c.mu.
func (c *Cache[V]) evictLocked() {
	evictLeastUsed(c.entries, c.max, func(e *entry[V]) time.Time { return e.used })
}

// Keys lists the keys the cache holds, built or being built.
func (c *Cache[V]) Keys() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := make([]string, 0, len(c.entries))
	for k := range c.entries {
		out = append(out, k)
	}
	return out
}

// Held returns the value of key when the cache holds it built without
// error, whatever its revision.
func (c *Cache[V]) Held(key string) (V, bool) {
	c.mu.Lock()
	e := c.entries[key]
	c.mu.Unlock()
	var zero V
	if e == nil {
		return zero, false
	}
	return c.Peek(key, e.rev)
}

// evictLeastUsed drops the least recently used entries of m until at most
// max are left; used tells when an entry was last used.
func evictLeastUsed[K comparable, V any](m map[K]V, max int, used func(V) time.Time) {
	for len(m) > max {
		var oldest K
		found := false
		for k, v := range m {
			if !found || used(v).Before(used(m[oldest])) {
				oldest, found = k, true
			}
		}
		delete(m, oldest)
	}
}
