// Package serve runs the app in a browser: it serves the built frontend and
// the same bound services as the desktop window over HTTP, on loopback
// only, behind a random token chosen at each launch.
//
// Every request must present the token: in the X-Ctxscope-Token header, in
// a ?token= query parameter (the URL the server prints), or in the cookie
// the server sets on the first authorised page load. Anything else gets
// 401. Host headers other than loopback names are refused, which stops DNS
// rebinding attacks from a web page.
//
// Endpoints:
//
//	GET  /...                          the frontend
//	POST /api/call/{Service}/{Method}  a bound method; body: JSON array of arguments
//	GET  /api/events                   server-sent events (the desktop's EventsEmit)
//	POST /api/upload?name=FILE         a session file as the raw body
package serve

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"net"
	"net/http"
	"strings"
	"time"

	"ctxscope/app"
)

const (
	tokenHeader = "X-Ctxscope-Token"
	tokenCookie = "ctxscope_token"
	tokenParam  = "token"
)

// Server serves one app to browsers on loopback.
type Server struct {
	app      *app.App
	assets   fs.FS
	token    string
	rpc      *rpc
	events   *broker
	listener net.Listener
	http     *http.Server
}

// New prepares a server for a over the built frontend assets. It installs
// itself as the app's platform.
func New(a *app.App, assets fs.FS) (*Server, error) {
	tok, err := newToken()
	if err != nil {
		return nil, err
	}
	s := &Server{app: a, assets: assets, token: tok, events: newBroker()}
	s.rpc, err = newRPC(a.Bindings())
	if err != nil {
		return nil, err
	}
	a.SetPlatform(s)
	s.http = &http.Server{Handler: s.Handler(), ReadHeaderTimeout: 10 * time.Second}
	return s, nil
}

// Token returns the per-launch token.
func (s *Server) Token() string { return s.token }

// CheckAddr reports whether addr is a loopback address serve may bind.
func CheckAddr(addr string) error {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("address %q: %w", addr, err)
	}
	if !isLoopbackHost(host) {
		return fmt.Errorf("address %q: serve binds loopback only (127.0.0.1, ::1 or localhost)", addr)
	}
	return nil
}

// Listen binds addr, which must be a loopback address ("127.0.0.1:0" picks
// a free port). It refuses any other interface.
func (s *Server) Listen(addr string) error {
	if err := CheckAddr(addr); err != nil {
		return err
	}
	host, _, _ := net.SplitHostPort(addr)
	if host == "localhost" {
		addr = net.JoinHostPort("127.0.0.1", addr[strings.LastIndex(addr, ":")+1:])
	}
	l, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	s.listener = l
	return nil
}

// URL returns the address to open in a browser, token included.
func (s *Server) URL() string {
	return fmt.Sprintf("http://%s/?%s=%s", s.listener.Addr(), tokenParam, s.token)
}

// Serve serves until ctx is done, then shuts down gracefully.
func (s *Server) Serve(ctx context.Context) error {
	errc := make(chan error, 1)
	go func() { errc <- s.http.Serve(s.listener) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
		s.events.close()
		shut, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if err := s.http.Shutdown(shut); err != nil && !errors.Is(err, http.ErrServerClosed) {
			return err
		}
		return nil
	}
}

// Handler returns the server's HTTP handler with authentication applied.
func (s *Server) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("POST /api/call/{service}/{method}", s.handleCall)
	mux.HandleFunc("GET /api/events", s.handleEvents)
	mux.HandleFunc("POST /api/upload", s.handleUpload)
	mux.Handle("GET /", s.staticHandler())
	return s.guard(mux)
}

// guard rejects requests with a foreign Host header or without the token.
func (s *Server) guard(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		host, _, err := net.SplitHostPort(r.Host)
		if err != nil {
			host = r.Host
		}
		if !isLoopbackHost(host) {
			http.Error(w, "forbidden host", http.StatusForbidden)
			return
		}
		presented, fromQuery := s.presentedToken(r)
		if subtle.ConstantTimeCompare([]byte(presented), []byte(s.token)) != 1 {
			w.Header().Set("WWW-Authenticate", `Token realm="ctxscope"`)
			http.Error(w, "unauthorized: open the URL that `ctxscope serve` printed", http.StatusUnauthorized)
			return
		}
		if fromQuery {
			http.SetCookie(w, &http.Cookie{Name: tokenCookie, Value: s.token, Path: "/", HttpOnly: true, SameSite: http.SameSiteStrictMode})
		}
		w.Header().Set("X-Content-Type-Options", "nosniff")
		w.Header().Set("Referrer-Policy", "no-referrer")
		w.Header().Set("Content-Security-Policy", contentSecurityPolicy)
		next.ServeHTTP(w, r)
	})
}

// contentSecurityPolicy allows only the app's own scripts and styles, so
// that even markup smuggled into the page could not run.
const contentSecurityPolicy = "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'"

func (s *Server) presentedToken(r *http.Request) (tok string, fromQuery bool) {
	if t := r.Header.Get(tokenHeader); t != "" {
		return t, false
	}
	if t := r.URL.Query().Get(tokenParam); t != "" {
		return t, true
	}
	if c, err := r.Cookie(tokenCookie); err == nil {
		return c.Value, false
	}
	return "", false
}

func isLoopbackHost(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(strings.Trim(host, "[]"))
	return ip != nil && ip.IsLoopback()
}

func newToken() (string, error) {
	b := make([]byte, 24)
	if _, err := rand.Read(b); err != nil {
		return "", fmt.Errorf("serve: token: %w", err)
	}
	return hex.EncodeToString(b), nil
}

// OpenFileDialog implements app.Platform: browsers get no native dialog.
func (s *Server) OpenFileDialog(string) (string, error) { return "", app.ErrNoDialog }

// SaveFileDialog implements app.Platform: browsers download instead.
func (s *Server) SaveFileDialog(string, string) (string, error) { return "", app.ErrNoDialog }

// Emit implements app.Platform by broadcasting a server-sent event.
func (s *Server) Emit(event string, data any) { s.events.publish(event, data) }

// Desktop implements app.Platform.
func (s *Server) Desktop() bool { return false }
