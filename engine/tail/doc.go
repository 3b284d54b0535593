// Package tail follows session files while agents write them, and turns
// each new record into normalized entries as soon as its line is complete.
//
// A [Reader] follows one file: it reads from the byte offset it reached,
// feeds complete lines to the format's incremental decoder (see
// [ctxscope/engine/ingest.Incremental]), keeps a partial last line until
// its newline arrives, and starts over when the file is truncated, or
// replaced or rotated under the same name (after reading what the old file
// still held). Its [Position] can be saved and given back to [Open] to
// resume without re-reading. A file of a whole-document format (a Gemini
// CLI JSON chat, an OpenCode database, an Inspect log) is instead read
// again whenever it changes, and the entries it gained are reported.
//
// A [Watcher] follows files and directories with fsnotify, with a slow
// poll as a backstop for file systems whose events get lost: files that
// appear in a watched directory, at any depth, are followed on their own.
// [Discover] lists the usual session directories and files under a home
// directory;
// the watcher looks at them only when [Options.AutoDiscover] is set, and at
// nothing else.
//
// Events carry copies of entries, so a receiver may keep them while the
// watcher goes on decoding.
package tail
