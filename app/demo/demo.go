// Package demo bundles the session the app opens when nothing else is open.
//
// The demo is a scripted pi v3 session, written by generate_test.go (run
// `go test ./app/demo -update` to rewrite it): an agent fixes a pagination
// bug in a small fictional TypeScript service over three user turns, and
// marks its work into CWL episodes with the delimiter tool. No public
// session carries delimiter annotations, so this one is synthetic; its
// tool outputs are plausible but invented, and it says so in its header.
package demo

import _ "embed"

// Name is the file name the demo session is shown under.
const Name = "demo-fix-pagination.jsonl"

// Session is the demo session file.
//
//go:embed demo-fix-pagination.jsonl
var Session []byte
