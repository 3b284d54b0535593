package serve

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/json"
	"encoding/pem"
	"errors"
	"io"
	"math/big"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"ctxscope/engine/store"
)

const teamHost = "team.ctxscope.test"

// selfSigned writes a certificate for teamHost and its key, and returns
// their paths and a pool that trusts the certificate.
func selfSigned(t *testing.T) (certFile, keyFile string, pool *x509.CertPool) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: teamHost}, DNSNames: []string{teamHost},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour), KeyUsage: x509.KeyUsageDigitalSignature,
		ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	kder, err := x509.MarshalECPrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	certFile, keyFile = filepath.Join(dir, "cert.pem"), filepath.Join(dir, "key.pem")
	os.WriteFile(certFile, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o600)
	os.WriteFile(keyFile, pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: kder}), 0o600)
	cert, _ := x509.ParseCertificate(der)
	pool = x509.NewCertPool()
	pool.AddCert(cert)
	return certFile, keyFile, pool
}

func TestServingBeyondLoopbackNeedsTLSAndTokens(t *testing.T) {
	if err := CheckAddr("0.0.0.0:8443", false); !errors.Is(err, ErrNotLoopback) ||
		!strings.Contains(err.Error(), "--tls-cert") || !strings.Contains(err.Error(), "ctxscope token create") {
		t.Errorf("CheckAddr without TLS: %v", err)
	}
	if err := CheckAddr("127.0.0.1:0", false); err != nil {
		t.Errorf("CheckAddr on loopback: %v", err)
	}
	dir := t.TempDir()
	srv := newServer(t, dir)
	if err := srv.Listen("0.0.0.0:0"); !errors.Is(err, ErrNotLoopback) || !strings.Contains(err.Error(), "no TLS") {
		t.Errorf("without TLS: %v", err)
	}
	certFile, keyFile, _ := selfSigned(t)
	if err := srv.UseTLS(certFile, keyFile); err != nil {
		t.Fatal(err)
	}
	if err := srv.Listen("0.0.0.0:0"); !errors.Is(err, ErrNotLoopback) || !strings.Contains(err.Error(), "no user tokens") {
		t.Errorf("with TLS and no user: %v", err)
	}
	st, err := store.Open(dir) // a second handle, as `ctxscope token create` is
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.CreateUserToken(context.Background(), "ann", store.RoleMember); err != nil {
		t.Fatal(err)
	}
	st.Close()
	if err := srv.Listen("0.0.0.0:0"); err != nil {
		t.Fatalf("with TLS and a user: %v", err)
	}
	srv.listener.Close()
}

// TestTeamServer serves over TLS beyond loopback and checks who each
// token signs in as, that a revoked token stops at once, and that the
// Host and Origin checks hold for the certificate's host.
func TestTeamServer(t *testing.T) {
	dir := t.TempDir()
	srv := newServer(t, dir)
	st, err := store.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	ctx := context.Background()
	tokens := map[string]string{}
	for _, u := range []string{"ann", "bob"} {
		if tokens[u], err = st.CreateUserToken(ctx, u, store.RoleMember); err != nil {
			t.Fatal(err)
		}
	}
	certFile, keyFile, pool := selfSigned(t)
	if err := srv.UseTLS(certFile, keyFile); err != nil {
		t.Fatal(err)
	}
	serveOn(t, srv, "0.0.0.0:0")

	_, port, _ := net.SplitHostPort(srv.listener.Addr().String())
	origin := "https://" + net.JoinHostPort(teamHost, port)
	if !strings.HasPrefix(srv.URL(), origin+"/#token=") {
		t.Errorf("printed URL %s, want one on %s", srv.URL(), origin)
	}
	client := &http.Client{Transport: &http.Transport{
		TLSClientConfig: &tls.Config{RootCAs: pool, ServerName: teamHost},
		DialContext: func(ctx context.Context, network, _ string) (net.Conn, error) {
			return (&net.Dialer{}).DialContext(ctx, network, net.JoinHostPort("127.0.0.1", port))
		},
	}}
	call := func(token, host, from, method string, args ...any) (int, string) {
		body, _ := json.Marshal(args)
		req, _ := http.NewRequest("POST", origin+"/api/call/Annotations/"+method, strings.NewReader(string(body)))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set(tokenHeader, token)
		if host != "" {
			req.Host = host
		}
		if from != "" {
			req.Header.Set("Origin", from)
		}
		resp, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, strings.TrimSpace(string(b))
	}
	for _, tc := range []struct {
		name, token, host, origin, method string
		args                              []any
		status                            int
		body                              string
	}{
		{"ann is ann", tokens["ann"], "", origin, "Annotator", nil, 200, `"ann"`},
		{"bob is bob", tokens["bob"], "", "", "Annotator", nil, 200, `"bob"`},
		{"the launch token is the server's annotator", srv.token, "", "", "Annotator", nil, 200, `"` + srv.launch.Name + `"`},
		{"ann cannot take another name", tokens["ann"], "", "", "SetAnnotator", []any{"mallory"}, 403, "desktop window only"},
		{"nor can the launch token", srv.token, "", "", "SetAnnotator", []any{"ann"}, 403, "desktop window only"},
		{"a wrong token", tokens["ann"] + "x", "", "", "Annotator", nil, 401, "unauthorized"},
		{"no token", "", "", "", "Annotator", nil, 401, "unauthorized"},
		{"a foreign Host", tokens["ann"], "attacker.example:" + port, "", "Annotator", nil, 403, "forbidden host"},
		{"a foreign Origin", tokens["ann"], "", "https://attacker.example", "Annotator", nil, 403, "foreign origin"},
		{"plain http as Origin", tokens["ann"], "", "http://" + net.JoinHostPort(teamHost, port), "Annotator", nil, 403, "foreign origin"},
	} {
		status, body := call(tc.token, tc.host, tc.origin, tc.method, tc.args...)
		if status != tc.status || !strings.Contains(body, tc.body) {
			t.Errorf("%s: %d %s; want %d with %q", tc.name, status, body, tc.status, tc.body)
		}
	}
	if err := st.RevokeUserToken(ctx, "bob"); err != nil {
		t.Fatal(err)
	}
	if status, body := call(tokens["bob"], "", "", "Annotator"); status != 401 {
		t.Errorf("a revoked token: %d %s", status, body)
	}
	// Plain HTTP to the TLS port gets no page.
	plain := &http.Client{Transport: &http.Transport{DialContext: client.Transport.(*http.Transport).DialContext}}
	if resp, err := plain.Get("http://" + net.JoinHostPort(teamHost, port) + "/"); err == nil {
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if strings.Contains(string(body), "doctype") {
			t.Error("the page was served over plain HTTP")
		}
	}
}
