// Package opencode imports OpenCode sessions from either of the stores
// OpenCode keeps under its data folder (~/.local/share/opencode):
//
//   - the JSON storage of earlier versions: storage/session/<project>/<id>.json
//     per session, storage/message/<session>/<id>.json per message and
//     storage/part/<message>/<id>.json per part. A session file is the
//     entry point; its messages and parts are read from beside it.
//   - the SQLite database of later versions, opencode.db, with tables
//     session, message and part whose data columns hold the same JSON.
//     Every session in it is read.
//
// Normalization:
//   - A user message's text and synthetic text parts are its content; an
//     attached file is described by its name (its content is not stored).
//   - An assistant message of OpenCode may cover several model calls
//     (steps, between step-start and step-finish parts): each step is one
//     assistant message, with its reasoning parts as thinking, its text,
//     and its tool parts as tool calls whose results (the parts' output)
//     follow as a tool message. A step-finish part carries the call's
//     usage (input without the cache, cache reads and writes, output and
//     reasoning) and its recorded cost; without steps, the message's own
//     tokens and cost stand for one call.
//   - An assistant message marked summary is OpenCode's compaction: a
//     compaction entry whose summary is its text.
//   - A session with a parentID is a subagent session: its thread's
//     ParentID names the parent session, so that [ctxscope/engine/ingest.Join]
//     attaches it.
package opencode
