// Package proxyrec imports what ctxscope's recording proxy wrote
// (engine/proxy): one JSON Lines file per conversation, one record per
// model request with the body the agent sent and the response the
// provider returned, for Anthropic Messages, OpenAI Chat Completions and
// Responses, and Gemini generateContent.
//
// Each record's request body is read into messages: its system prompt and
// tool schemas as one system message of origin requestShape (each schema
// a text block naming its tool), then the conversation's messages. The
// response, streamed or whole, is assembled into the assistant message
// that answers it, with the provider's usage. Consecutive requests share
// their context: the messages a request repeats from the one before are
// the same entries, so that the thread is the conversation as it grew, and
// the input of every request is exactly the messages its body carried.
// Where an agent rewrote its history (a compaction, an edit), the thread
// branches where the bodies part, and an assistant message the body
// carries that is no recorded response is an echo ([session.OriginEcho]):
// context, not a request. A failed exchange (an error status, no
// response) is a response entry with the error and no usage. The thread
// is named by the session id the agent sends in its headers, when it
// sends one: the id of its own log (engine/wire joins the two).
package proxyrec
