package cwl

import (
	"encoding/json"

	"ctxscope/engine/session"
	"ctxscope/engine/tokens"
)

// Message kinds in a [Plan], by how eviction treats them.
const (
	msgUser      uint8 = iota // a turn the user typed: never evicted
	msgSystem                 // a system prompt: never evicted (not a pi role)
	msgAssistant              // an assistant message: its blocks can be stripped
	msgTool                   // tool results
	msgOther                  // injected user-role text (bashExecution, custom, summaries)
)

// The reference's tool sets (context-filter.ts L17-19), exact names.
const (
	piNone uint8 = iota
	piSearch
	piBash
	piRead
)

// Plan is a context's messages flattened into dense per-message and
// per-block arrays, measured once through a token ledger. Every eviction
// policy runs on a Plan, so that re-running one (at another budget, or for
// another request) costs no tokenization, no maps and no allocation in its
// loops. A Plan covers a whole shared [session.Context]; each request is a
// prefix of it.
type Plan struct {
	Msgs    []*session.Message
	Entries []*session.Entry // may be nil

	div4 bool // tokens = ceil(units/4) (the estimator); else units + over
	over int32
	cnt  tokens.Counter

	mFirst []int32 // first block of each message; mFirst[n] = total blocks
	mKind  []uint8
	mTok   []int32   // full tokens of each message
	prefix []int64   // prefix[i] = tokens of Msgs[:i]
	mCat   []uint8   // category of a message's own text and overhead
	mBrk   []float64 // full breakdown of each message, numCats per message
	pBrk   []float64 // prefix sums of mBrk, numCats per prefix length
	protP  []int64   // prefix sums of the tokens of protected messages
	sysP   []int64   // prefix sums of the tokens of system prompts
	pProt  []float64 // prefix sums of protected messages' breakdowns

	bMsg   []int32
	bUnits []int32
	bType  []session.BlockType
	bPi    []uint8     // reference tool set of a tool call
	bClass []ToolClass // classifier's class of a tool call
	bGroup []int32     // tool-call id group of calls and results, -1 for none
	bCat   []uint8     // token category of each block
	bName  []string    // tool name of calls
	bPath  []string    // path argument of calls ("" when none)

	groupResults [][]int32   // result blocks of each id group, ascending
	groupClass   []ToolClass // class of the call of each id group, as far as seen

	// calls lists the tool calls of assistant messages, ascending; mCall[i]
	// is the index in it of the first at or after message i. Eviction
	// walks an episode's calls, not every block of its messages.
	calls []int32
	mCall []int32

	// Segments are the declared episodes over the whole context.
	Segments []Segment
}

// NewPlan flattens msgs (with their source entries, which may be nil)
// and measures them with l. tools classifies tool names; nil means
// [DefaultClassifier].
func NewPlan(msgs []*session.Message, entries []*session.Entry, l *tokens.Ledger, tools *Classifier) *Plan {
	if tools == nil {
		tools = DefaultClassifier()
	}
	p := &Plan{Msgs: msgs, Entries: entries, cnt: l.Counter()}
	if _, ok := l.Counter().(tokens.Estimator); ok {
		p.div4 = true
	} else {
		p.over = int32(l.Counter().Tokens(&session.Message{}, 0))
	}
	n := len(msgs)
	p.mCat = make([]uint8, n)
	p.mBrk = make([]float64, n*numCats)
	p.pBrk = make([]float64, (n+1)*numCats)
	p.protP = make([]int64, n+1)
	p.sysP = make([]int64, n+1)
	p.pProt = make([]float64, (n+1)*numCats)
	p.mFirst = make([]int32, n+1)
	p.mCall = make([]int32, n+1)
	p.mKind = make([]uint8, n)
	p.mTok = make([]int32, n)
	p.prefix = make([]int64, n+1)
	groups := map[string]int32{}
	for i, m := range msgs {
		p.addMessage(i, m, l, tools, groups)
	}
	p.mFirst[n] = int32(len(p.bMsg))
	p.mCall[n] = int32(len(p.calls))
	p.groupResults = make([][]int32, len(groups))
	for b, g := range p.bGroup {
		if g >= 0 && p.bType[b] == session.BlockToolResult {
			p.groupResults[g] = append(p.groupResults[g], int32(b))
		}
	}
	p.Segments = SegmentMessages(msgs)
	return p
}

// addMessage measures message i and extends every per-message array and
// prefix sum.
func (p *Plan) addMessage(i int, m *session.Message, l *tokens.Ledger, tools *Classifier, groups map[string]int32) {
	p.mFirst[i] = int32(len(p.bMsg))
	p.mCall[i] = int32(len(p.calls))
	p.mKind[i] = kindOf(m)
	units := l.Units(m)
	for k := range m.Blocks {
		p.addBlock(i, &m.Blocks[k], units[k], tools, groups)
	}
	p.mTok[i] = int32(l.Message(m))
	p.prefix[i+1] = p.prefix[i] + int64(p.mTok[i])
	prot := p.protected(i)
	p.protP[i+1], p.sysP[i+1] = p.protP[i], p.sysP[i]
	if prot {
		p.protP[i+1] += int64(p.mTok[i])
	}
	if p.mKind[i] == msgSystem {
		p.sysP[i+1] += int64(p.mTok[i])
	}
	p.mCat[i] = uint8(tokens.CategoryOf(m, &session.Block{Type: session.BlockText}))
	var brk [numCats]float64
	lb := l.Breakdown(m)
	copy(brk[:], lb[:])
	for b := p.mFirst[i]; b < int32(len(p.bMsg)); b++ {
		if c := p.bCat[b]; c >= uint8(tokens.NumCategories) {
			wt := p.weight(p.bUnits[b])
			brk[tokens.CatToolResult] -= wt
			brk[c] += wt
		}
	}
	for c := range numCats {
		p.mBrk[i*numCats+c] = brk[c]
		p.pBrk[(i+1)*numCats+c] = p.pBrk[i*numCats+c] + brk[c]
		p.pProt[(i+1)*numCats+c] = p.pProt[i*numCats+c]
		if prot {
			p.pProt[(i+1)*numCats+c] += brk[c]
		}
	}
}

func (p *Plan) addBlock(i int, b *session.Block, units int, tools *Classifier, groups map[string]int32) {
	p.bMsg = append(p.bMsg, int32(i))
	p.bUnits = append(p.bUnits, int32(units))
	p.bType = append(p.bType, b.Type)
	p.bCat = append(p.bCat, uint8(tokens.CategoryOf(p.Msgs[i], b)))
	g := int32(-1)
	var pi uint8
	var cl ToolClass
	var name, path string
	switch {
	case b.Type == session.BlockToolCall && p.mKind[i] == msgAssistant:
		g = p.group(groups, b.ToolCallID)
		pi, cl, name, path = piSet(b.ToolName), tools.Class(b.ToolName), b.ToolName, pathArg(b.Arguments)
		p.groupClass[g] = cl
		p.calls = append(p.calls, int32(len(p.bMsg)-1))
	case b.Type == session.BlockToolResult:
		g = p.group(groups, b.ToolCallID)
		p.bCat[len(p.bCat)-1] = outputCategory(p.groupClass[g])
	}
	p.bGroup = append(p.bGroup, g)
	p.bPi = append(p.bPi, pi)
	p.bClass = append(p.bClass, cl)
	p.bName = append(p.bName, name)
	p.bPath = append(p.bPath, path)
}

// group returns the id group of a tool-call id, starting a new one for an
// id not seen before.
func (p *Plan) group(groups map[string]int32, id string) int32 {
	g, ok := groups[id]
	if !ok {
		g = int32(len(groups))
		groups[id] = g
		p.groupClass = append(p.groupClass, ClassDurable)
	}
	return g
}

func kindOf(m *session.Message) uint8 {
	switch {
	case m.Role == session.RoleAssistant:
		return msgAssistant
	case m.Role == session.RoleTool || onlyResults(m):
		return msgTool
	case m.Role == session.RoleSystem:
		return msgSystem
	case m.IsUser():
		return msgUser
	}
	return msgOther
}

// onlyResults reports whether m carries nothing but tool results, as the
// user-role messages of some formats (Claude Code) do: they are tool
// output, not a user turn.
func onlyResults(m *session.Message) bool {
	for i := range m.Blocks {
		if m.Blocks[i].Type != session.BlockToolResult {
			return false
		}
	}
	return len(m.Blocks) > 0
}

func piSet(name string) uint8 {
	switch name {
	case "grep", "glob", "find", "ls":
		return piSearch
	case "bash":
		return piBash
	case "read":
		return piRead
	}
	return piNone
}

// pathArg returns the file path a tool call names, from the argument keys
// the supported agents use.
func pathArg(raw json.RawMessage) string {
	if len(raw) == 0 || raw[0] != '{' {
		return ""
	}
	var a struct {
		Path         *string `json:"path"`
		FilePath     *string `json:"file_path"`
		NotebookPath *string `json:"notebook_path"`
		Filename     *string `json:"filename"`
	}
	if json.Unmarshal(raw, &a) != nil {
		return ""
	}
	for _, s := range []*string{a.Path, a.FilePath, a.NotebookPath, a.Filename} {
		if s != nil {
			return *s
		}
	}
	return ""
}

// weight is the fractional token share of units, as the counter's Weight.
func (p *Plan) weight(units int32) float64 {
	if p.div4 {
		return float64(units) / 4
	}
	return float64(units)
}

// Len returns the number of messages in the plan.
func (p *Plan) Len() int { return len(p.Msgs) }

// Tokens returns the tokens of the first n messages, unevicted.
func (p *Plan) Tokens(n int) int { return int(p.prefix[n]) }

// tokensOf turns a message's kept units into tokens, as the counter does.
func (p *Plan) tokensOf(units, kept int32) int32 {
	if kept == 0 {
		return 0
	}
	if p.div4 {
		return (units + 3) / 4
	}
	return units + p.over
}

// Counter returns the name of the counter the plan was measured with.
func (p *Plan) Counter() string { return p.cnt.Name() }

// protected reports whether message i is never evicted by any policy.
func (p *Plan) protected(i int) bool {
	k := p.mKind[i]
	return k == msgUser || k == msgSystem
}
