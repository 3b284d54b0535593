package search

import "github.com/blevesearch/bleve/v2"

// analysisWorkers is how many goroutines analyze the documents of a batch
// (bleve's default is 4). One leaves the other core to the page and to
// the replays while a long session is indexed in the background, and the
// analysis is not what bounds indexing: building the test corpus's index
// took 5-9% longer with one worker than with four, in the same run.
// In three browser runs with each on the paper-scale session, right after
// its import, the server's CPU time per τ drag step at the p95 was
// 10.6-11.7 ms with one worker against 13.7-16.8 ms with four, and the
// warm first paint 0.9-1.4 s against 1.5-1.9 s at the median
// (docs/bench/debugger.md, fourth pass).
const analysisWorkers = 1

// The queue is set before any index opens: an index keeps the queue it
// was opened with, and setting another closes the one before.
func init() { bleve.Config.SetAnalysisQueueSize(analysisWorkers) }
