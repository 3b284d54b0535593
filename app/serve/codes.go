package serve

import (
	"encoding/json"
	"html"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"sync"
	"time"
)

// codeLifetime bounds how long a one-time code may wait to be used.
const codeLifetime = 2 * time.Minute

// codes are one-time codes a page exchanges for the token. A code that
// another program read off the browser opener's command line and used
// first is spent: the user's page then says so, instead of the thief
// holding a secret that lasts.
type codes struct {
	mu      sync.Mutex
	pending map[string]time.Time // code -> when it expires
}

func newCodes() *codes { return &codes{pending: map[string]time.Time{}} }

func (c *codes) issue() (string, error) {
	code, err := newSecret()
	if err != nil {
		return "", err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.pending[code] = time.Now().Add(codeLifetime)
	return code, nil
}

// redeem reports whether code was issued, is fresh and unused, and spends
// it.
func (c *codes) redeem(code string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	expires, ok := c.pending[code]
	delete(c.pending, code)
	return ok && time.Now().Before(expires)
}

// handleSession exchanges a one-time code for the token.
func (s *Server) handleSession(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Code string `json:"code"`
	}
	if err := json.NewDecoder(io.LimitReader(r.Body, 4096)).Decode(&req); err != nil || req.Code == "" {
		writeError(w, http.StatusBadRequest, "want {\"code\": …}")
		return
	}
	if !s.codes.redeem(req.Code) {
		writeError(w, http.StatusUnauthorized, "this link was already used or has expired: open the link that `ctxscope serve` printed")
		return
	}
	writeJSON(w, http.StatusOK, map[string]string{"token": s.token})
}

// OpenerPage writes a page that forwards the browser to a fresh one-time
// URL, and returns its path, for a browser opener to be handed instead of
// the URL: a command line is readable by every local process
// (/proc/PID/cmdline), and a one-time code on it was once exchanged by
// another process 3 ms after launch. The page is a file of 0600 in a
// directory of 0700 that only this account can read; it is removed once
// the code has expired. remove deletes it at once.
func (s *Server) OpenerPage() (path string, remove func(), err error) {
	u, err := s.OneTimeURL()
	if err != nil {
		return "", nil, err
	}
	dir, err := os.MkdirTemp("", "ctxscope-open-")
	if err != nil {
		return "", nil, err
	}
	remove = func() { os.RemoveAll(dir) }
	path = filepath.Join(dir, "open.html")
	page := `<!doctype html><meta charset="utf-8"><meta name="referrer" content="no-referrer">` +
		`<meta http-equiv="refresh" content="0;url=` + html.EscapeString(u) + `"><title>ctxscope</title>`
	if err := os.WriteFile(path, []byte(page), 0o600); err != nil {
		remove()
		return "", nil, err
	}
	time.AfterFunc(codeLifetime, remove)
	return path, remove, nil
}
