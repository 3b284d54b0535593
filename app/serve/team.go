package serve

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"net"
	"strings"
)

// A team's server: serve listens beyond loopback only with TLS and with
// per-user tokens in the workspace (ctxscope token create NAME). Each
// member opens https://HOST:PORT/#token=THEIR-TOKEN; their calls run as
// them (app.WithUser), so that their marks are theirs. Requests must name
// one of the certificate's hosts (or a loopback one) in their Host header,
// and the foreign-Origin and same-site checks stay as on loopback.

// ErrNotLoopback is returned for an address beyond loopback when TLS or
// the users' tokens are missing.
var ErrNotLoopback = errors.New("serve: an address beyond loopback needs TLS and per-user tokens")

// CheckAddr reports whether serve may bind addr: any loopback address,
// and another only with TLS (withTLS: --tls-cert and --tls-key given).
// The users' tokens are checked when the server listens (Listen).
func CheckAddr(addr string, withTLS bool) error {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("address %q: %w", addr, err)
	}
	if !isLoopbackHost(host) && !withTLS {
		return notLoopback(addr, "no TLS certificate was given")
	}
	return nil
}

func notLoopback(addr, why string) error {
	return fmt.Errorf("%w: %q is not a loopback address and %s. Serve a team with "+
		"--tls-cert FILE --tls-key FILE and tokens made with `ctxscope token create NAME`; "+
		"otherwise bind 127.0.0.1, ::1 or localhost", ErrNotLoopback, addr, why)
}

// UseTLS makes the server speak HTTPS with the certificate chain and key
// in the PEM files given. The certificate's DNS names and IP addresses
// are the hosts the server answers to, besides loopback names.
func (s *Server) UseTLS(certFile, keyFile string) error {
	pair, err := tls.LoadX509KeyPair(certFile, keyFile)
	if err != nil {
		return fmt.Errorf("serve: TLS certificate: %w", err)
	}
	leaf, err := x509.ParseCertificate(pair.Certificate[0])
	if err != nil {
		return fmt.Errorf("serve: TLS certificate: %w", err)
	}
	s.hosts = map[string]bool{}
	for _, n := range leaf.DNSNames {
		s.hosts[strings.ToLower(n)] = true
	}
	for _, ip := range leaf.IPAddresses {
		s.hosts[ip.String()] = true
	}
	if len(s.hosts) == 0 {
		return fmt.Errorf("serve: the TLS certificate names no host (DNS name or IP address): browsers would refuse it")
	}
	s.tls = &tls.Config{Certificates: []tls.Certificate{pair}, MinVersion: tls.VersionTLS12}
	return nil
}

// checkTeam refuses to listen on addr beyond loopback unless the server
// has TLS and the workspace has users with tokens.
func (s *Server) checkTeam(ctx context.Context, addr string) error {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("address %q: %w", addr, err)
	}
	if isLoopbackHost(host) {
		return nil
	}
	if s.tls == nil {
		return notLoopback(addr, "no TLS certificate was given")
	}
	has, err := s.app.HasUsers(ctx)
	if err != nil {
		return err
	}
	if !has {
		return notLoopback(addr, "the workspace has no user tokens")
	}
	return nil
}

// knownHost reports whether a request's Host names this server: a
// loopback name, or one of its certificate's hosts.
func (s *Server) knownHost(host string) bool {
	return isLoopbackHost(host) || s.hosts[strings.ToLower(strings.Trim(host, "[]"))]
}
