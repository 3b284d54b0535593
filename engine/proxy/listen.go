package proxy

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"net"
	"net/http"
	"time"
)

// CheckAddr refuses a listening address beyond loopback: the proxy
// forwards whatever keys its clients send, so only this machine may
// reach it.
func CheckAddr(addr string) error {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("proxy address %q: %w", addr, err)
	}
	if host == "localhost" {
		return nil
	}
	if ip := net.ParseIP(host); ip == nil || !ip.IsLoopback() {
		return fmt.Errorf("proxy address %q: only a loopback address (127.0.0.1, ::1, localhost) may be used", addr)
	}
	return nil
}

// NewToken returns a fresh secret path segment.
func NewToken() string {
	b := make([]byte, 16)
	rand.Read(b)
	return hex.EncodeToString(b)
}

// Server is a proxy listening on a loopback address.
type Server struct {
	ln  net.Listener
	srv *http.Server
}

// Listen starts serving p on addr, which must be loopback.
func Listen(p *Proxy, addr string) (*Server, error) {
	if err := CheckAddr(addr); err != nil {
		return nil, err
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("proxy: listen on %s: %w", addr, err)
	}
	// No write timeout: a streamed answer may take minutes.
	srv := &http.Server{Handler: p, ReadHeaderTimeout: 10 * time.Second, IdleTimeout: 120 * time.Second, MaxHeaderBytes: 1 << 20}
	go srv.Serve(ln)
	return &Server{ln: ln, srv: srv}, nil
}

// Addr is the address the server listens on (its port chosen when the
// address asked for port 0).
func (s *Server) Addr() string { return s.ln.Addr().String() }

// Close stops the server and the exchanges in flight.
func (s *Server) Close() error { return s.srv.Close() }
