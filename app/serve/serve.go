// Package serve runs the app in a browser: it serves the built frontend and
// the same bound services as the desktop window over HTTP, on loopback,
// behind a random token chosen at each launch; or to a team over HTTPS
// beyond loopback, behind per-user tokens (see team.go).
//
// The token travels in one place only, the X-Ctxscope-Token header of
// each API request, which a page can send only to its own origin. It is
// never a cookie (cookies do not tell ports apart, so every process
// listening on 127.0.0.1 would receive it) and never part of a URL the
// server sees. The page learns it from the fragment of the link the server
// prints (#token=…, which browsers keep to themselves), or exchanges a
// one-time code for it (#code=…, what --open hands the browser, so that no
// lasting secret appears on a command line). Every API request must also
// come from the page's own origin: a foreign Origin or Sec-Fetch-Site, a
// call whose body is not declared JSON, or a Host header that is not a
// loopback name is refused. The built frontend itself is public: it is the
// same in every copy of the binary and holds no data. See docs/security.md.
//
// Endpoints:
//
//	GET  /...                          the frontend
//	POST /api/session                  {"code": …} → {"token": …}, once per code
//	POST /api/call/{Service}/{Method}  a bound method; body: JSON array of arguments
//	GET  /api/events                   server-sent events (the desktop's EventsEmit)
//	POST /api/upload?name=FILE         a session file as the raw body
//	POST /v1/traces, POST /v1/logs     OTLP/HTTP: GenAI traces and logs become sessions (docs/ingest.md)
package serve

import (
	"context"
	"crypto/rand"
	"crypto/tls"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"net"
	"net/http"
	"sort"
	"strings"
	"time"

	"ctxscope/app"
	"ctxscope/engine/ingest/otlp"
)

// Server serves one app to browsers on loopback.
type Server struct {
	app    *app.App
	assets fs.FS
	token  string
	// launch is who the per-launch token signs in: the operator, under
	// the server's one annotator name.
	launch app.Principal
	codes  *codes
	events *broker
	ingest admission
	// recheck is how often an open event stream checks that its user's
	// token still stands: a revoked member stops receiving.
	recheck  time.Duration
	listener net.Listener
	http     *http.Server
	// tls and hosts are set by UseTLS: HTTPS, and the hosts its
	// certificate names.
	tls   *tls.Config
	hosts map[string]bool
}

// New prepares a server for a over the built frontend assets. It installs
// itself as the app's platform.
func New(a *app.App, assets fs.FS) (*Server, error) {
	tok, err := newSecret()
	if err != nil {
		return nil, err
	}
	launch, err := a.LaunchPrincipal("")
	if err != nil {
		return nil, err
	}
	s := &Server{app: a, assets: assets, token: tok, launch: launch, codes: newCodes(), events: newBroker(),
		ingest: newAdmission(maxConcurrentIngest), recheck: 5 * time.Second}
	a.SetPlatform(s)
	s.http = &http.Server{Handler: s.Handler(), ReadHeaderTimeout: headerTimeout, IdleTimeout: idleTimeout,
		MaxHeaderBytes: maxHeaderBytes}
	return s, nil
}

// UseAnnotator makes name the annotator that the per-launch token's marks
// are made under (serve --annotator); the page cannot change it.
func (s *Server) UseAnnotator(name string) error {
	p, err := s.app.LaunchPrincipal(name)
	if err != nil {
		return err
	}
	s.launch = p
	return nil
}

// The listener's limits. A connection has headerTimeout for its TLS
// handshake and its request's headers, and is closed after idleTimeout
// without a request: 300 idle TLS connections were once held for good.
const (
	headerTimeout  = 10 * time.Second
	idleTimeout    = 60 * time.Second
	maxHeaderBytes = 64 << 10
)

// Token returns the per-launch token.
func (s *Server) Token() string { return s.token }

// Listen binds addr: a loopback address ("127.0.0.1:0" picks a free
// port), or another only when the server has TLS (UseTLS) and the
// workspace has users with tokens.
func (s *Server) Listen(addr string) error {
	if err := s.checkTeam(context.Background(), addr); err != nil {
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
	if s.tls != nil {
		l = tls.NewListener(l, s.tls)
	}
	s.listener = l
	return nil
}

// origin is the scheme and host of the server's pages as a browser names
// them, for a request that reached it at host.
func (s *Server) origin(host string) string {
	if s.tls != nil {
		return "https://" + host
	}
	return "http://" + host
}

// linkHost is the host and port of the printed links: the listening
// address, or with TLS the certificate's first host at its port.
func (s *Server) linkHost() string {
	addr := s.listener.Addr().String()
	if s.tls == nil {
		return addr
	}
	_, port, _ := net.SplitHostPort(addr)
	hosts := make([]string, 0, len(s.hosts))
	for h := range s.hosts {
		hosts = append(hosts, h)
	}
	sort.Strings(hosts)
	return net.JoinHostPort(hosts[0], port)
}

// URL returns the address to open in a browser, with the token in its
// fragment: the browser never sends it anywhere, the page reads it.
func (s *Server) URL() string {
	return fmt.Sprintf("%s/#token=%s", s.origin(s.linkHost()), s.token)
}

// OneTimeURL returns an address with a fresh one-time code instead of the
// token, for handing to another program (a browser opener) whose command
// line other local users can read: the code opens one page, once, within
// codeLifetime.
func (s *Server) OneTimeURL() (string, error) {
	code, err := s.codes.issue()
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("%s/#code=%s", s.origin(s.linkHost()), code), nil
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

// Handler returns the server's HTTP handler with its checks applied.
func (s *Server) Handler() http.Handler {
	api := http.NewServeMux()
	api.HandleFunc("POST /api/call/{service}/{method}", s.handleCall)
	api.HandleFunc("GET /api/events", s.handleEvents)
	api.HandleFunc("POST /api/upload", s.ingest.limited(s.handleUpload))
	api.HandleFunc("POST /v1/traces", s.ingest.limited(s.handleOTLP(otlp.Traces)))
	api.HandleFunc("POST /v1/logs", s.ingest.limited(s.handleOTLP(otlp.Logs)))
	api.Handle("POST /api/session", http.HandlerFunc(s.handleSession))
	guarded := s.sameOrigin(s.authorized(api))
	login := s.sameOrigin(api)
	static := s.staticHandler()
	return s.loopbackHost(securityHeaders(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case r.URL.Path == "/api/session":
			login.ServeHTTP(w, r)
		case strings.HasPrefix(r.URL.Path, "/api/") || strings.HasPrefix(r.URL.Path, "/v1/"):
			guarded.ServeHTTP(w, r)
		case r.Method == http.MethodGet || r.Method == http.MethodHead:
			static.ServeHTTP(w, r)
		default:
			http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		}
	})))
}

// loopbackHost refuses requests whose Host header is not a loopback name
// (or, with TLS, one of the certificate's hosts), which stops a web page
// from reaching the server through DNS rebinding.
func (s *Server) loopbackHost(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		host, _, err := net.SplitHostPort(r.Host)
		if err != nil {
			host = r.Host
		}
		if !s.knownHost(host) {
			http.Error(w, "forbidden host", http.StatusForbidden)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// securityHeaders sets the headers of every response: no sniffing, no
// referrer, and a Content-Security-Policy that runs only the app's own
// scripts, so that even markup smuggled into the page could not run.
func securityHeaders(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("X-Content-Type-Options", "nosniff")
		w.Header().Set("Referrer-Policy", "no-referrer")
		w.Header().Set("Content-Security-Policy", contentSecurityPolicy)
		w.Header().Set("Cross-Origin-Resource-Policy", "same-origin")
		next.ServeHTTP(w, r)
	})
}

const contentSecurityPolicy = "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

func isLoopbackHost(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(strings.Trim(host, "[]"))
	return ip != nil && ip.IsLoopback()
}

// newSecret returns 24 random bytes in hex.
func newSecret() (string, error) {
	b := make([]byte, 24)
	if _, err := rand.Read(b); err != nil {
		return "", fmt.Errorf("serve: random secret: %w", err)
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
