// Package pi imports sessions written by the pi coding agent and by its
// CWL fork (Kiz8-Team/pi-cwl).
//
// It reads three shapes:
//   - session JSONL, versions 1 (linear, no ids), 2 and 3 (an id/parentId
//     tree whose current branch is the path to the last entry);
//   - a JSON array of pi AgentMessages, such as the history of a CWL
//     conformance vector;
//   - a single AgentMessage object.
//
// Version 1 files are migrated as pi itself migrates them: entries are
// chained in file order, and a compaction's firstKeptEntryIndex (an index
// into the file's lines, header included) becomes the id of that entry.
// Every branch of a tree is kept. CWL delimiter results keep their
// details.chunkEvent in the tool-result block's Details.
package pi
