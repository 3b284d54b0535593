// Package mcprecall gives a running agent back what live eviction took
// from its context, over the Model Context Protocol. The agent's requests
// pass through the recording proxy (engine/proxy), which evicts under a
// CWL policy (engine/evict) and records each exchange; this package reads
// the conversation's records, replays them under the same policy and τ
// (which makes the proxy's decisions again), and serves two tools:
//
//   - recall: a query in the agent's words; the evicted passages most
//     relevant to it (the knowledge graph's files first, then BM25, as
//     the look-back evaluation ranks them), within a token cap;
//   - context_status: what was evicted from the latest request's input,
//     at which level, from which episode, and how big.
//
// The server speaks MCP over stdio (an agent starts `ctxscope mcp`) or
// over streamable HTTP on loopback, at a path with a secret in it and
// refusing any request a browser page could send.
package mcprecall
