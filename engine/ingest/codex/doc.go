// Package codex imports OpenAI Codex CLI rollouts
// (~/.codex/sessions/YYYY/MM/DD/rollout-<time>-<uuid>.jsonl).
//
// Two layouts are read. The modern one wraps every line in
// {timestamp, type, payload}; the legacy one (until mid 2025) starts with
// a header {id, timestamp, instructions, git} followed by bare Responses
// API items and {"record_type":"state"} lines.
//
// Normalization:
//   - Consecutive model output items (reasoning, function_call,
//     custom_tool_call, local_shell_call, web_search_call, an assistant
//     message) are one response, so they become one assistant message;
//     any input item (a user message, a call's output) ends it.
//   - A reasoning item's summary becomes a thinking block; its
//     encrypted_content, and an encrypted_content part of a message,
//     become opaque blocks that keep only their size: they are not text,
//     no text counter counts them, and they are never rendered.
//   - function_call_output and custom_tool_call_output become tool
//     messages linked by call_id.
//   - event_msg token_count gives the usage of the response before it;
//     user_message and agent_message events duplicate response items and
//     are kept as metadata only, like every other event.
//   - compacted becomes a compaction entry; session_meta's
//     base_instructions, and the legacy header's instructions, become a
//     system message.
//   - A subagent rollout (session_meta.source is {subagent: ...}, or a
//     parent_thread_id is set) has a subagent main thread whose ParentID
//     is the parent's thread id, which is the parent session's id, so that
//     [ctxscope/engine/ingest.Join] attaches it to its parent.
//   - Unknown record types are kept as metadata, without complaint: the
//     format is best-effort upstream and grows often.
package codex
