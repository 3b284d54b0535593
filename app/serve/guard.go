package serve

import (
	"crypto/subtle"
	"mime"
	"net/http"
	"strings"

	"ctxscope/app"
)

// tokenHeader carries the per-launch token on every API request.
const tokenHeader = "X-Ctxscope-Token"

// sameOrigin refuses API requests that a browser marks as coming from
// another origin: a page on another port of 127.0.0.1 is same-site but
// not same-origin, and must not reach the API even by a request that
// needs no preflight (a form post, a no-cors fetch, a text/plain body).
// Requests without these headers (curl, the CLI's tests) pass on to the
// token check, which no page of another origin can meet either.
func (s *Server) sameOrigin(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if site := r.Header.Get("Sec-Fetch-Site"); site != "" && site != "same-origin" {
			http.Error(w, "forbidden: cross-origin request ("+site+")", http.StatusForbidden)
			return
		}
		if origin := r.Header.Get("Origin"); origin != "" && origin != s.origin(r.Host) {
			http.Error(w, "forbidden: foreign origin", http.StatusForbidden)
			return
		}
		if r.Method == http.MethodPost && r.URL.Path != "/api/upload" && !isJSON(r.Header.Get("Content-Type")) && !isOTLPProtobuf(r) {
			http.Error(w, "unsupported media type: calls take application/json", http.StatusUnsupportedMediaType)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// authorized refuses requests that do not carry, in its header, the
// per-launch token or a user's token (ctxscope token create); a call runs
// as its principal (app.WithPrincipal), which App.Invoke allows by role.
// What an unauthenticated client is told says nothing about the server:
// why a token could not be checked goes to the server's log only.
func (s *Server) authorized(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p, ok, err := s.principalOf(r)
		if err != nil {
			s.app.Logf("serve: cannot check a token: %v", err)
			w.Header().Set("Retry-After", "5")
			http.Error(w, "service unavailable", http.StatusServiceUnavailable)
			return
		}
		if !ok {
			w.Header().Set("WWW-Authenticate", `Token realm="ctxscope"`)
			http.Error(w, "unauthorized: open the link that `ctxscope serve` printed, or your own token's", http.StatusUnauthorized)
			return
		}
		next.ServeHTTP(w, r.WithContext(app.WithPrincipal(r.Context(), p)))
	})
}

// presentedToken is the token a request carries: the X-Ctxscope-Token
// header, or a bearer token (what OTLP exporters are usually given).
func presentedToken(r *http.Request) string {
	presented := r.Header.Get(tokenHeader)
	if bearer, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer "); ok && presented == "" {
		presented = strings.TrimSpace(bearer)
	}
	return presented
}

// principalOf returns who a request's token says it comes from: the
// server's operator for the per-launch token, a user for theirs.
func (s *Server) principalOf(r *http.Request) (app.Principal, bool, error) {
	presented := presentedToken(r)
	if subtle.ConstantTimeCompare([]byte(presented), []byte(s.token)) == 1 {
		return s.launch, true, nil
	}
	if presented == "" {
		return app.Principal{}, false, nil
	}
	return s.app.UserOfToken(r.Context(), presented)
}

// isOTLPProtobuf reports whether r posts protobuf to an OTLP path: not a
// type a page of another origin can send without a preflight.
func isOTLPProtobuf(r *http.Request) bool {
	mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
	return err == nil && mt == "application/x-protobuf" && strings.HasPrefix(r.URL.Path, "/v1/")
}

func isJSON(contentType string) bool {
	mt, _, err := mime.ParseMediaType(contentType)
	return err == nil && mt == "application/json"
}
