// Package session defines ctxscope's normalized model of an agent session.
//
// Every importer turns its source format into this model, and every engine
// (token accounting, context-window replay, memory) reads only this model.
//
// # Shape
//
// A [Session] holds one or more [Thread]s: the main conversation, and the
// subagent or sidechain conversations some agents write beside it. A thread
// is a list of [Entry] values in source order. Entries link to their parent
// through ParentID, so a thread is a tree when the source format branches
// (pi v2/v3, Claude Code rewinds) and a chain otherwise. Most entries carry a
// [Message]; others record the source agent's own events: compactions,
// model changes, labels and metadata kept for the record.
//
// A [Message] has a normalized [Role] and an ordered list of [Block]s (text,
// thinking, tool call, tool result, image). Origin keeps the source's own
// message type when the normalized role loses information, for example pi's
// bashExecution or compactionSummary messages, which reach the model as user
// text but follow their own rules when tokens are counted or content evicted.
//
// # Requests
//
// Each assistant message is the response to one LLM request. [BuildRequests]
// reconstructs the input of every request: the messages on the path from the
// root of the thread to the request, with the source agent's compactions
// applied the way the agent applied them.
//
// Session content is untrusted input: the model keeps it as plain strings
// and raw JSON, never as markup.
package session
