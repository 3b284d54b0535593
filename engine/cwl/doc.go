// Package cwl implements CWL (Context Window Lifecycle): episodes that an
// agent marks with the delimiter tool (or that ctxscope infers from tool
// use), the episode graph, and the policies that evict episode content
// when a token budget τ is exceeded, replayed over every LLM request of a
// session.
//
// # Policies
//
// Two CWL policies are selected by name (see [Policies]):
//
//   - "paper" (the default): Algorithm 1 of "Beyond Compaction: Structured
//     Context Eviction for Long-Horizon Agents". Candidates are closed,
//     non-prologue, non-active episodes whose dependents are fully evicted;
//     the oldest act episode goes first, else the oldest expl episode or
//     unannotated run. Levels: 1 reasoning (expl only), 2 bulk output
//     (search and listing tools), 3 intermediate artifacts (reads and shell
//     commands), 4 full removal, after which an expl episode keeps its end
//     delimiter call and result (its description) as its only trace. User
//     turns are never evicted, eviction state only deepens across the
//     requests of a context, and a request left over budget carries an
//     [Unreachable] record naming what blocks it.
//   - "pi-cwl": the reference implementation (Kiz8-Team/pi-cwl cd2ea3f),
//     byte for byte: oldest eligible chunk of any kind, five steps,
//     stateless recomputation before every request (evicted chunks can come
//     back), its estimator and its chunkStats. [FilterPiCWL] is one pass;
//     the public conformance vectors are its acceptance tests.
//
// Three baselines complete the cost model: "none" (uncapped), "truncate"
// (drop the oldest non-user messages) and "compact" (summary compaction).
//
// # Replay
//
// [Prepare] measures a session's requests once into a [Plan] per shared
// context: dense per-message and per-block arrays of token units, prefix
// sums, tool classes and call-id groups. [Replayer.Run] then replays one
// policy at one budget as arithmetic over those arrays, fast enough to run
// again while a user drags τ; [Replayer.ContextAt] and [Replayer.DiffAt]
// give the exact input of one request and how it differs from the one
// before; [Replayer.Sweep] runs a range of budgets.
//
// The delimiter tool itself (argument validation, error texts, the edit
// guard, the parallel-batch rule) lives in package protocol.
package cwl
