package proxy

import (
	"bytes"
	"context"
	"crypto/subtle"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"net/http/httputil"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// DefaultMaxBody is how many bytes of each body a record keeps unless
// told otherwise: a longer body is passed through whole and recorded
// truncated.
const DefaultMaxBody = 16 << 20

// Options configure a [Proxy].
type Options struct {
	// Token is the secret path segment: only requests under /p/<Token>/
	// are forwarded. It must be at least 16 characters.
	Token string
	// Upstreams are the providers' endpoints (see [ParseUpstreams]).
	Upstreams map[Provider]*url.URL
	// Sink receives the records; nil records nothing.
	Sink Sink
	// MaxBody is how many bytes of each body a record keeps (0:
	// DefaultMaxBody).
	MaxBody int64
	// Transport forwards requests; nil uses one that leaves compression
	// to the agent (so that no byte changes).
	Transport http.RoundTripper
	// Errors receives what the sink failed to record; nil drops it.
	Errors func(error)
	// Rewrite, when set, may change a model call's body before it is
	// forwarded (engine/evict applies CWL eviction): it returns the body
	// to forward, nil to forward it as sent, and a note for the record.
	Rewrite func(api API, conversation string, body []byte) ([]byte, string)
}

// Proxy is the recording proxy, an http.Handler.
type Proxy struct {
	opts   Options
	prefix string
	rp     *httputil.ReverseProxy
	seq    atomic.Int64

	mu   sync.Mutex
	last map[string]lastRequest // by conversation
}

// lastRequest is a conversation's latest exchange: its sequence number and
// request hash, which a retry repeats.
type lastRequest struct {
	seq int
	sum string
}

// exchange is what the proxy notes about one request while it is
// forwarded.
type exchange struct {
	started  time.Time
	api      API
	call     bool
	req, res *capture
	status   int
	resType  string
	resEnc   string
	reqType  string
	reqEnc   string
	err      error
	// clientClosed: the agent closed its connection before the
	// response's end.
	clientClosed bool
	// forwarded is the body forwarded in place of the agent's, when a
	// rewrite changed it; rewriteNote says what the rewrite did.
	forwarded   []byte
	rewriteNote string
	// seq numbers a model call in the order the calls started; retryOf
	// is the call it repeats, noted (under Proxy.mu) once its request
	// was sent: a call recorded late, while the agent's next one is
	// already answered, is still the one that came first.
	seq     int
	retryOf int
	noted   bool
}

type exchangeKey struct{}

// New returns a proxy with opts.
func New(opts Options) (*Proxy, error) {
	if len(opts.Token) < 16 || strings.ContainsAny(opts.Token, "/?#%") {
		return nil, errors.New("proxy: the token must be at least 16 characters, none of them / ? # %")
	}
	if opts.Upstreams == nil {
		u, err := ParseUpstreams(nil)
		if err != nil {
			return nil, err
		}
		opts.Upstreams = u
	}
	if opts.MaxBody <= 0 {
		opts.MaxBody = DefaultMaxBody
	}
	if opts.Transport == nil {
		t := http.DefaultTransport.(*http.Transport).Clone()
		t.DisableCompression = true // never decompress: the agent gets the upstream's bytes
		opts.Transport = t
	}
	p := &Proxy{opts: opts, prefix: "/p/" + opts.Token, last: map[string]lastRequest{}}
	p.rp = &httputil.ReverseProxy{
		Rewrite:        p.rewriteRequest,
		ModifyResponse: p.modifyResponse,
		ErrorHandler:   p.errorHandler,
		Transport:      opts.Transport,
		FlushInterval:  -1, // every chunk as it arrives
		// A client that goes away mid-stream is no news: the record says
		// how far the response got.
		ErrorLog: log.New(io.Discard, "", 0),
	}
	return p, nil
}

// Prefix is the path under which the proxy forwards: an agent's base URL
// is the proxy's address followed by it (and by /v1 where the agent's
// setting includes the version).
func (p *Proxy) Prefix() string { return p.prefix }

// ServeHTTP forwards one request and records it.
func (p *Proxy) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if RefuseForeign(w, r, "ctxscope proxy") {
		return
	}
	rest, ok := p.under(r.URL.Path)
	if !ok {
		http.NotFound(w, r)
		return
	}
	api, call := Classify(r.Method, rest)
	ex := &exchange{started: time.Now(), api: api, call: call, req: newCapture(p.opts.MaxBody), res: newCapture(p.opts.MaxBody),
		reqType: r.Header.Get("Content-Type"), reqEnc: r.Header.Get("Content-Encoding")}
	if call {
		ex.seq = int(p.seq.Add(1))
	}
	out := r.Clone(context.WithValue(r.Context(), exchangeKey{}, ex))
	out.URL.Path, out.URL.RawPath = rest, ""
	if r.Body != nil && r.Body != http.NoBody {
		out.Body = newTeeBody(r.Body, ex.req, r.ContentLength)
	}
	if call && p.opts.Rewrite != nil {
		p.rewrite(out, ex)
	}
	if call && p.opts.Sink != nil {
		defer func() {
			// A copy that fails (the upstream breaking off mid-stream, or
			// the agent closing its connection once it has what it
			// needs) makes the reverse proxy abort the response with a
			// panic that the HTTP server expects: the exchange is
			// recorded on the way, with an error when the upstream's
			// response did not reach its end.
			if v := recover(); v != nil {
				switch {
				case r.Context().Err() != nil:
					ex.clientClosed = true // not a failure of the call
				case ex.err == nil && !ex.res.complete():
					ex.err = errors.New("the response was cut off before its end")
				}
				p.record(r, rest, ex)
				panic(v)
			}
			p.record(r, rest, ex)
		}()
	}
	p.rp.ServeHTTP(w, out)
}

// under returns the path below the proxy's prefix, comparing the token in
// constant time.
func (p *Proxy) under(path string) (string, bool) {
	if len(path) <= len(p.prefix) || path[len(p.prefix)] != '/' {
		return "", false
	}
	if subtle.ConstantTimeCompare([]byte(path[:len(p.prefix)]), []byte(p.prefix)) != 1 {
		return "", false
	}
	return path[len(p.prefix):], true
}

// RefuseForeign answers a request that did not come from a program of
// this machine, and reports whether it did: one with an Origin header,
// which only a web page's request carries (403), or one whose Host is not
// loopback, as when a page of another site has its name resolve to
// 127.0.0.1 (421). who names the server in the answer. The proxy and the
// MCP endpoint both begin with it.
func RefuseForeign(w http.ResponseWriter, r *http.Request, who string) bool {
	if r.Header.Get("Origin") != "" {
		http.Error(w, who+": requests from web pages are refused", http.StatusForbidden)
		return true
	}
	if !loopbackHost(r.Host) {
		http.Error(w, who+": unexpected Host", http.StatusMisdirectedRequest)
		return true
	}
	return false
}

// loopbackHost reports whether a Host header names this machine's loopback
// (so that a page of another site, resolving its name to 127.0.0.1, is
// refused).
func loopbackHost(host string) bool {
	h, _, err := net.SplitHostPort(host)
	if err != nil {
		h = host
	}
	h = strings.Trim(h, "[]")
	if h == "localhost" {
		return true
	}
	ip := net.ParseIP(h)
	return ip != nil && ip.IsLoopback()
}

// rewrite reads a model call's body whole and forwards what the Rewrite
// option makes of it. A body larger than a record keeps, or compressed,
// goes as sent.
func (p *Proxy) rewrite(out *http.Request, ex *exchange) {
	if out.Body == nil || ex.reqEnc != "" {
		return
	}
	body, err := io.ReadAll(io.LimitReader(out.Body, p.opts.MaxBody+1))
	if err != nil || int64(len(body)) > p.opts.MaxBody {
		// Too large to rewrite, or broken: what was read goes first,
		// then the rest as it comes.
		out.Body = readCloser{io.MultiReader(bytes.NewReader(body), out.Body), out.Body}
		ex.rewriteNote = "not rewritten: the body is larger than the proxy keeps"
		return
	}
	out.Body.Close()
	fwd, note := p.opts.Rewrite(ex.api, ConversationKey(ex.api, body), body)
	ex.rewriteNote = note
	if fwd == nil {
		out.Body = io.NopCloser(bytes.NewReader(body))
		return
	}
	ex.forwarded = fwd
	out.Body = io.NopCloser(bytes.NewReader(fwd))
	out.ContentLength = int64(len(fwd))
	out.Header.Set("Content-Length", strconv.Itoa(len(fwd)))
}

// readCloser reads from one reader and closes another.
type readCloser struct {
	io.Reader
	io.Closer
}

func (p *Proxy) rewriteRequest(pr *httputil.ProxyRequest) {
	ex := pr.In.Context().Value(exchangeKey{}).(*exchange)
	prov := ex.api.Provider()
	if !ex.call {
		prov = providerOf(pr.In.URL.Path)
	}
	up := p.opts.Upstreams[prov]
	pr.Out.URL.Scheme, pr.Out.URL.Host = up.Scheme, up.Host
	pr.Out.URL.Path = up.Path + pr.In.URL.Path
	pr.Out.URL.RawPath = ""
	pr.Out.Host = up.Host
}

func (p *Proxy) modifyResponse(res *http.Response) error {
	ex := res.Request.Context().Value(exchangeKey{}).(*exchange)
	p.noteRequest(ex)
	ex.status, ex.resType, ex.resEnc = res.StatusCode, res.Header.Get("Content-Type"), res.Header.Get("Content-Encoding")
	if res.Body != nil {
		res.Body = newTeeBody(res.Body, ex.res, -1)
	}
	return nil
}

func (p *Proxy) errorHandler(w http.ResponseWriter, r *http.Request, err error) {
	ex := r.Context().Value(exchangeKey{}).(*exchange)
	p.noteRequest(ex)
	ex.err = err
	if errors.Is(err, context.Canceled) {
		return // the agent went away: there is no one to answer
	}
	msg := fmt.Sprintf("ctxscope proxy: the upstream did not answer: %v", err)
	if ex.status == 0 {
		http.Error(w, msg, http.StatusBadGateway)
	}
}

// record hands the finished exchange to the sink.
func (p *Proxy) record(in *http.Request, path string, ex *exchange) {
	p.noteRequest(ex)
	rec := &Record{Version: RecordVersion, Seq: ex.seq, RetryOf: ex.retryOf, API: ex.api, Method: in.Method, Path: path,
		Session: sessionHeaders(in.Header), UserAgent: truncate(in.Header.Get("User-Agent"), 200), Started: ex.started.UTC(), Status: ex.status,
		Request: ex.req.body(ex.reqType, ex.reqEnc), Response: ex.res.body(ex.resType, ex.resEnc)}
	rec.DurationMS = ms(time.Since(ex.started))
	if first := ex.res.firstAt(); !first.IsZero() {
		rec.FirstByteMS = ms(first.Sub(ex.started))
	}
	rec.Rewrite = ex.rewriteNote
	if ex.forwarded != nil {
		fc := newCapture(p.opts.MaxBody)
		fc.note(ex.forwarded)
		b := fc.body(ex.reqType, "")
		rec.Forwarded = &b
	}
	if ex.err != nil && !errors.Is(ex.err, context.Canceled) {
		rec.Error = ex.err.Error()
	}
	rec.ClientClosed = ex.clientClosed || errors.Is(ex.err, context.Canceled)
	rec.Conversation = "unparsed"
	if !rec.Request.Truncated {
		rec.Conversation = ConversationKey(ex.api, rec.Request.Raw())
	}
	if err := p.opts.Sink.Record(rec); err != nil && p.opts.Errors != nil {
		p.opts.Errors(err)
	}
}

// noteRequest notes, once, what a model call's request was, once it was
// sent (the upstream answered, or failed to): which conversation, and
// whether it repeats that conversation's latest call started before it
// with the same body (a retry). A compressed body is not compared.
func (p *Proxy) noteRequest(ex *exchange) {
	if !ex.call {
		return
	}
	sum, key := ex.req.fingerprint(ex.api)
	p.mu.Lock()
	defer p.mu.Unlock()
	if ex.noted || ex.reqEnc != "" {
		return
	}
	ex.noted = true
	last, ok := p.last[key]
	if ok && last.sum == sum && last.seq < ex.seq {
		ex.retryOf = last.seq
	}
	if !ok || last.seq < ex.seq {
		p.last[key] = lastRequest{seq: ex.seq, sum: sum}
	}
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

func truncate(s string, n int) string {
	if len(s) > n {
		s = s[:n]
	}
	return strings.ToValidUTF8(s, "\uFFFD")
}
