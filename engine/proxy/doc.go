// Package proxy is a recording proxy for model APIs: an agent whose base
// URL points at it talks to its provider through it, and every model
// request and response is kept exactly as it crossed the wire.
//
// The proxy forwards each request to the upstream of its API (Anthropic
// Messages, OpenAI Chat Completions and Responses, Gemini generateContent)
// and streams the response back chunk by chunk, flushing each as it
// arrives. It changes no byte of either body: compression is passed
// through, not undone, and only hop-by-hop headers are dropped, as HTTP
// requires. Beside the bytes it forwards it keeps a bounded copy of each
// body, their sizes and SHA-256, the status, the timing and any error,
// and hands the exchange to a [Sink] as a [Record] once the response
// ends.
//
// Only requests under the proxy's secret path prefix are forwarded, so
// that no other local process or web page can drive it; a request that
// carries an Origin header (a browser's) or names another host is
// refused. API keys and auth headers pass through and are never recorded:
// a record keeps the path without its query and only the headers that name
// a session.
package proxy
