package cwl

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"ctxscope/engine/session"
	"ctxscope/engine/tokens"
)

// DefaultThreshold is the reference's budget when none is set
// (DEFAULT_CWL_THRESHOLD_TOKENS, context-filter.ts L76).
const DefaultThreshold = 80_000

// Limit is a CWL budget: a number of tokens, or a percentage of the
// model's context window.
type Limit struct {
	Percent bool    `json:"percent"`
	Value   float64 `json:"value"`
}

// ParseLimit reads a budget as the reference's parseCwlLimit does
// (context-filter.ts L105-121): "50%" (0 < n ≤ 100), "50k" or "50K"
// (thousands), or a plain number of tokens.
func ParseLimit(s string) (*Limit, error) {
	t := strings.TrimSpace(s)
	bad := fmt.Errorf("cwl: invalid budget %q (want tokens such as 20000 or 50k, or a percentage such as 50%%)", s)
	switch {
	case strings.HasSuffix(t, "%"):
		v, err := strconv.ParseFloat(strings.TrimSpace(t[:len(t)-1]), 64)
		if err != nil || v <= 0 || v > 100 {
			return nil, bad
		}
		return &Limit{Percent: true, Value: v}, nil
	case strings.HasSuffix(t, "k") || strings.HasSuffix(t, "K"):
		v, err := strconv.ParseFloat(strings.TrimSpace(t[:len(t)-1]), 64)
		if err != nil || v < 0 || math.IsInf(v, 0) {
			return nil, bad
		}
		return &Limit{Value: jsRound(v * 1000)}, nil
	}
	v, err := strconv.ParseFloat(t, 64)
	if err != nil || v < 0 || math.IsInf(v, 0) {
		return nil, bad
	}
	return &Limit{Value: jsRound(v)}, nil
}

// Threshold returns the effective token threshold of a limit for a
// context window (getEffectiveCwlThreshold, L82-92): a percentage is taken
// of the window, nil means [DefaultThreshold], a non-finite or
// non-positive result is 0, and the result is rounded. There is no cap at
// the window.
func Threshold(window int, l *Limit) int {
	v := float64(DefaultThreshold)
	if l != nil {
		v = l.Value
		if l.Percent {
			v = float64(window) * l.Value / 100
		}
	}
	if math.IsNaN(v) || math.IsInf(v, 0) || v <= 0 {
		return 0
	}
	return int(jsRound(v))
}

// jsRound is JavaScript's Math.round: halves round up.
func jsRound(v float64) float64 { return math.Floor(v + 0.5) }

// FilterResult is one filter pass in the vector format
// (testdata/shared/cwl-vectors/README.md).
type FilterResult struct {
	TokensBefore int          `json:"tokensBefore"`
	TokensAfter  int          `json:"tokensAfter"`
	Threshold    int          `json:"threshold"`
	ChunkStats   []ChunkStats `json:"chunkStats"`
	View         []ViewEntry  `json:"view"`
}

// unfiltered is the result of a filter that removed nothing from n
// messages: every message in the view, no chunk records, no tokens.
func unfiltered(n int) FilterResult {
	res := FilterResult{ChunkStats: []ChunkStats{}, View: make([]ViewEntry, n)}
	for i := range res.View {
		res.View[i] = ViewEntry{I: i}
	}
	return res
}

// FilterPiCWL runs the reference filter once over msgs, as the next LLM
// request would see them: filterContext(msgs, window, limit) with the
// ledger's counter (the "estimate" counter reproduces the reference's
// heuristic). A window ≤ 0 disables the filter (tokens and threshold 0).
func FilterPiCWL(msgs []*session.Message, window int, limit *Limit, l *tokens.Ledger) FilterResult {
	res := unfiltered(len(msgs))
	if window <= 0 {
		return res
	}
	p := NewPlan(msgs, nil, l, nil)
	pp := newPiPasser(p, true)
	res.Threshold = Threshold(window, limit)
	var chunks []ChunkStats
	res.TokensBefore, res.TokensAfter, chunks = pp.pass(len(msgs), res.Threshold)
	if chunks != nil {
		res.ChunkStats = chunks
	}
	res.View = pp.w.view()
	return res
}
