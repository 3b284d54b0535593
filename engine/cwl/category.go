package cwl

import "ctxscope/engine/tokens"

// The replay's token categories are the ledger's ([tokens.CategoryNames]),
// with tool output split further by the class of the tool that produced
// it: the debugger stacks them so that one sees which kind of output fills
// a context and which eviction level would free it. Tool results of
// durable, delimiter and unknown tools stay in "toolResult".
const (
	catSearchOutput = int(tokens.NumCategories) + iota // results of search tools (level 2)
	catReadOutput                                      // results of read tools (level 3)
	catShellOutput                                     // results of shell tools (level 3)
	catEditOutput                                      // results of edit tools
	catUnlogged                                        // what the provider counted that the log does not hold (calibrated replays)
	numCatsTotal
)

// numCats is the number of token categories breakdowns use.
const numCats = numCatsTotal

// categoryNames names every replay category in [Point.Cats] order.
var categoryNames = func() []string {
	names := append([]string(nil), tokens.CategoryNames()...)
	return append(names, "toolResult.search", "toolResult.read", "toolResult.shell", "toolResult.edit", "unlogged")
}()

// CategoryNames lists the replay's categories in [Point.Cats] order: the
// ledger's categories, then tool output by tool class, then the unlogged
// input a calibrated replay adds.
func CategoryNames() []string { return append([]string(nil), categoryNames...) }

// outputCategory returns the category of a tool result produced by a tool
// of class c.
func outputCategory(c ToolClass) uint8 {
	switch c {
	case ClassSearch:
		return uint8(catSearchOutput)
	case ClassRead:
		return uint8(catReadOutput)
	case ClassShell:
		return uint8(catShellOutput)
	case ClassEdit:
		return uint8(catEditOutput)
	}
	return uint8(tokens.CatToolResult)
}
