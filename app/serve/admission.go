package serve

import (
	"net/http"
	"strconv"
)

// maxConcurrentIngest bounds the uploads and OTLP exports the server reads
// at once. Each may hold up to maxOTLPBody of decompressed data while it
// is read: without a bound, 16 concurrent gzip bombs, each refused alone,
// took the server to 2.3 GB together. OTLP exporters retry a 429 after
// its Retry-After, so a burst waits rather than fails.
const maxConcurrentIngest = 2

// ingestRetryAfter is the Retry-After, in seconds, of a refused ingest.
const ingestRetryAfter = 1

// admission is a counting semaphore of ingest slots.
type admission chan struct{}

func newAdmission(n int) admission { return make(admission, n) }

// limited answers 429 Too Many Requests, with Retry-After, to a request
// that finds every ingest slot taken, and otherwise holds a slot while
// next handles it.
func (a admission) limited(next http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		select {
		case a <- struct{}{}:
			defer func() { <-a }()
			next(w, r)
		default:
			w.Header().Set("Retry-After", strconv.Itoa(ingestRetryAfter))
			http.Error(w, "too many uploads and exports at once: retry", http.StatusTooManyRequests)
		}
	}
}
