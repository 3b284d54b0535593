// Package protocol reproduces the CWL delimiter tool of the reference
// implementation: its AJV argument validation (with coercion), its start
// and end checks in the reference's order and with its exact error
// strings, the file-mutation guard, and the parallel-batch semantics of one
// assistant message. [Validate] replays the delimiter calls of a session
// and reports protocol violations as findings, never failing on bad input.
package protocol
