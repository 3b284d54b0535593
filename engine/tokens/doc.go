// Package tokens counts the tokens of session messages.
//
// Three counters are available by name (see [ByName]):
//
//   - "estimate": the CWL reference implementation's heuristic
//     (pi's estimateTokens): per message ceil(chars/4), where chars are
//     JavaScript UTF-16 code units and tool-call arguments are measured as
//     JSON.stringify output. It reproduces the reference byte for byte and is
//     the counter the pi-cwl compatibility policy uses.
//   - "o200k" and "cl100k": OpenAI's BPE encodings through tiktoken-go, with
//     the BPE tables embedded in the binary (no network access, ever).
//
// A counter measures each block in additive units (characters for the
// estimator, tokens for BPE) and turns a message's summed units into
// tokens. A [Ledger] caches the units of every block it has seen, so that
// counting a message again, or counting it with some blocks removed, costs no
// tokenization.
package tokens
