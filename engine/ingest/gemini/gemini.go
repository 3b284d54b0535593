// Package gemini imports Gemini CLI sessions: the chat recordings it keeps
// under ~/.gemini/tmp/<project hash>/chats/ and the checkpoints /chat save
// writes beside them.
//
// Three layouts are read:
//   - a chat recording as one JSON document, {sessionId, projectHash,
//     startTime, lastUpdated, messages: [...]};
//   - the same as JSON Lines (Gemini CLI 0.40 on): a first line with the
//     session's metadata, then one line per message, a message written
//     again with the same id replacing the earlier copy (a response whose
//     tool calls have finished), and {"$set": {...}} lines updating the
//     metadata. This layout grows as the session goes on and is followed
//     live;
//   - a checkpoint: the model's own history, an array of {role, parts}
//     with text, thought, functionCall and functionResponse parts.
//
// Normalization of chat messages:
//   - "user" messages are user turns; "info", "error" and "warning"
//     messages are the CLI's own notices, kept as metadata.
//   - A "gemini" message is one model response: its thoughts (Gemini's
//     readable thought summaries) as thinking, its text, and its toolCalls
//     as tool calls; the calls' results (functionResponse parts) are sent
//     back with the next request, so they become a tool message after it.
//   - tokens is the response's usage as the Gemini API reports it: input
//     (the prompt, cached tokens included) and tool (tool-use prompt)
//     tokens are the request's input, cached its cache reads, output and
//     thoughts its output.
package gemini

import (
	"time"

	"ctxscope/engine/session"
)

type timeT = time.Time

// Importer reads Gemini CLI chats and checkpoints. The zero value is ready
// to use.
type Importer struct{}

// Format returns [session.FormatGemini].
func (Importer) Format() session.Format { return session.FormatGemini }
