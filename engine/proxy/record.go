package proxy

import (
	"encoding/base64"
	"time"
)

// RecordVersion is the version of the record format; a record names it in
// its ctxscope_proxy field.
const RecordVersion = 1

// Record is one exchange as the proxy saw it: the request the agent sent
// and the response the upstream returned, each as a bounded copy of its
// bytes with the whole body's size and SHA-256.
type Record struct {
	Version int `json:"ctxscope_proxy"`
	// Seq numbers the proxy's exchanges from 1, in the order they started.
	Seq int `json:"seq"`
	// Conversation names the conversation the request belongs to (see
	// [ConversationKey]).
	Conversation string `json:"conversation"`
	API          API    `json:"api"`
	Method       string `json:"method"`
	// Path is the request's path under the proxy's prefix, without its
	// query (which may hold a key).
	Path string `json:"path"`
	// Session holds the request headers that name the agent's session or
	// conversation, when it sends any; no other header is kept.
	Session map[string]string `json:"session,omitempty"`
	// UserAgent is the agent's User-Agent header, which names the agent
	// and its version.
	UserAgent string `json:"userAgent,omitempty"`

	Started time.Time `json:"started"`
	// FirstByteMS is the time from the request's start to the first byte
	// of the response body; DurationMS to the response's end.
	FirstByteMS float64 `json:"firstByteMs"`
	DurationMS  float64 `json:"durationMs"`
	// Status is the upstream's HTTP status, 0 when none came (Error says
	// why).
	Status int    `json:"status"`
	Error  string `json:"error,omitempty"`
	// ClientClosed marks an exchange whose agent closed its connection
	// before the response ended (many stop reading once the stream's last
	// event came): the record holds what had come. It is not an error.
	ClientClosed bool `json:"clientClosed,omitempty"`
	// RetryOf is the sequence number of the latest earlier exchange of the
	// conversation with the same request body: this one is its retry.
	RetryOf int `json:"retryOf,omitempty"`

	// Request is the body as the agent sent it.
	Request Body `json:"request"`
	// Forwarded is the body as forwarded, when a rewrite (live eviction)
	// changed it; Rewrite says what the rewrite did, or why it did not.
	Forwarded *Body  `json:"forwarded,omitempty"`
	Rewrite   string `json:"rewrite,omitempty"`
	Response  Body   `json:"response"`
}

// Body is one body's bounded copy.
type Body struct {
	// Text is the body exactly as it crossed the proxy when it is valid
	// UTF-8 (a JSON string is an exact, reversible encoding of it); its
	// first bytes when Truncated, cut on a rune boundary.
	Text string `json:"text,omitempty"`
	// Base64 is the body when it is whole but not valid UTF-8.
	Base64 string `json:"base64,omitempty"`
	// Bytes and SHA256 describe the whole body as it crossed the proxy.
	Bytes  int64  `json:"bytes"`
	SHA256 string `json:"sha256"`
	// Truncated marks a body larger than the proxy keeps: it was passed
	// through whole and only its first bytes are here.
	Truncated bool `json:"truncated,omitempty"`
	// Encoding is the body's Content-Encoding when it was compressed:
	// Text is then the decoded body (gzip, deflate), or absent for a
	// coding the proxy does not decode; Bytes and SHA256 are the
	// compressed bytes'.
	Encoding string `json:"encoding,omitempty"`
	// ContentType is the body's media type (text/event-stream for a
	// streamed response).
	ContentType string `json:"contentType,omitempty"`
}

// Raw returns the body's kept bytes.
func (b *Body) Raw() []byte {
	if b.Base64 != "" {
		out, _ := base64.StdEncoding.DecodeString(b.Base64)
		return out
	}
	return []byte(b.Text)
}

// Failed reports whether the exchange did not end in a 2xx response.
func (r *Record) Failed() bool { return r.Error != "" || r.Status < 200 || r.Status > 299 }

// Sink receives each exchange once its response has ended.
type Sink interface {
	Record(r *Record) error
}
