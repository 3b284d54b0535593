// Package debug builds what the session debugger shows from a session and
// its CWL replay: the threads to pick from, a replay's timeline in the
// columnar shape charts draw, the exact context of any request with every
// missing part attributed to the eviction that removed it, token
// breakdowns, the diff from the previous request, and where a search hit
// lands among the requests.
//
// A [Replay] keeps one thread prepared (tokenized once, through a token
// ledger) so that a new budget or policy costs a replay, not a re-measure.
// It imports no UI code: the app binds thin services over it.
package debug
