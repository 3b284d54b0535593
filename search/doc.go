// Package search is ctxscope's full-text index over a workspace, built on
// Bleve. It is the only package that imports Bleve.
//
// Every searchable piece of a workspace becomes one document: the text of
// a user or assistant message, a thinking block, a tool call (its name and
// arguments), a tool result, a compaction summary, an episode, and the
// memory items (passages, triples, experiences). Documents carry the
// fields kind, session, thread, entry, line, role, tool, episode, speaker,
// set and time, so that a hit says where to jump to and searches can be
// filtered and faceted.
//
// Text is indexed twice: with Bleve's English analyzer for prose
// (stemming, stop words) and with a code-aware analyzer ([CodeTokenizer])
// that finds identifiers and paths by their parts.
//
// The index lives beside the workspace database and follows it: [Index.Sync]
// indexes what the workspace gained since the last sync, so imports and
// live tails are indexed incrementally. The index records the version of
// its mapping and is rebuilt from the workspace when the mapping changes.
package search
