// Package claude imports Claude Code session transcripts
// (~/.claude/projects/<project>/<sessionId>.jsonl and, from version 2, the
// subagent files <sessionId>/subagents/agent-*.jsonl).
//
// Normalization:
//   - One API response is written over several lines, one per content
//     block, all with the same message.id and a repeated usage. The lines
//     become one assistant entry (the id of the first line; later lines'
//     uuids are aliases of it), and usage is counted once, field by field
//     the largest value seen, since output_tokens grows as the response
//     streams.
//   - uuid/parentUuid form the entry tree, so resumes, rewinds and forks
//     are branches. A record whose uuid was already imported (a resume
//     copies history) is skipped.
//   - Tool results arrive in user lines; such a line becomes a tool
//     message (RoleTool).
//   - The main thread's id is "main". Sidechain lines of version 1
//     (isSidechain, inline in the main file) become one subagent thread per
//     sidechain root, whose ParentID is "main". A version 2 subagent file
//     (every line a sidechain with an agentId) is one subagent thread,
//     "agent-<agentId>", whose ParentID is the sessionId: the session it
//     belongs to, so that [ctxscope/engine/ingest.Join] can attach it.
//   - summary lines become compaction entries at the root of the tree
//     (they change no request's input); a system compact_boundary becomes
//     a compaction entry linked to its logical parent, with the user line
//     marked isCompactSummary, the summary the model saw, after it.
//   - Every other record (system subtypes, attachment,
//     file-history-snapshot, queue-operation, ...) is kept as a metadata
//     entry with its raw JSON; records in the uuid tree keep their place
//     in it so that paths stay connected.
package claude
