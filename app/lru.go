package app

import "time"

// evictLeastUsed drops the least recently used entries of m until at most
// max are left; used tells when an entry was last used. The caches of
// prepared replays and of session memories share it.
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
