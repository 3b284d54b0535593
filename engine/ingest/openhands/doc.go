// Package openhands imports OpenHands trajectories: an array of events
// (the UI's download, or {"history": [...]}) or an evaluation output.jsonl,
// one task instance per line with its history, each a session.
//
// Events are streamed one at a time. An action with tool_call_metadata is
// part of a model response; actions that share the response's id become
// one assistant message whose text is the response's content and whose
// tool calls carry the arguments the model wrote, with the response's
// usage counted once. The observation answering a tool call becomes a
// tool message. system and message actions become system, user or
// assistant messages; an error observation outside a tool call reaches
// the model as user text; every other event (recall, agent state changes)
// is kept as metadata. Histories from before function calling (2024's
// CodeAct, and the resolver's flat events of that time, which have no
// source or id) are read too: see legacy.go.
package openhands
