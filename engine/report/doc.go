// Package report summarises an imported session: what it holds, what its
// requests cost in tokens, and where its source agent compacted. It backs
// `ctxscope inspect` and the first screen of the app.
package report
