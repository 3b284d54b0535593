// Package embedtest gives tests the offline word vectors.
package embedtest

import (
	"os"
	"testing"

	"ctxscope/engine/memory/embed"
)

// RequireEnv names the variable that turns a missing vector file from a
// skip into a failure. `make test` fetches the vectors and sets it, so CI
// never passes without running these tests.
const RequireEnv = "CTXSCOPE_REQUIRE_EMBEDDINGS"

// Path returns the vector file (see embed.DefaultPath). When there is none
// it skips the test, or fails it when RequireEnv is set.
func Path(tb testing.TB) string {
	tb.Helper()
	p, err := embed.DefaultPath()
	if err == nil {
		return p
	}
	if os.Getenv(RequireEnv) != "" {
		tb.Fatalf("%v (%s is set)", err, RequireEnv)
	}
	tb.Skip(err)
	return ""
}
