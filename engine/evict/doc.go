// Package evict applies CWL eviction to model requests as they cross the
// recording proxy (engine/proxy): for each request of a conversation it
// computes the decisions a replay of the conversation so far would make
// at that request (engine/debug, the same engine the debugger replays
// with), and rewrites the request's body in its API's own format.
//
// A rewrite never removes a message, so that no tool call loses its
// result and no result its call: evicted reasoning is dropped from the
// assistant message that holds it, an evicted tool output or tool input
// is replaced by a stub that says what was removed, and evicted assistant
// text by a stub too. User turns are never evicted (the policies keep
// them), the request's own last turn is left as sent, and a request
// under τ or the first of a conversation is forwarded untouched. A body
// the rewriter cannot read is forwarded untouched, with a note.
//
// It rewrites Anthropic Messages, OpenAI Chat Completions and Responses,
// and Gemini generateContent requests.
package evict
