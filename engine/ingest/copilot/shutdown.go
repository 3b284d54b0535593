package copilot

import (
	"encoding/json"

	"ctxscope/engine/session"
)

// shutdown is what session.shutdown records about the process that ends:
// its usage by model, the same usage as token details, and the size of
// the context it last measured.
type shutdown struct {
	ModelMetrics map[string]struct {
		Requests json.RawMessage `json:"requests"` // a count, or {count, cost}
		Usage    *struct {
			Input      int `json:"inputTokens"`
			Output     int `json:"outputTokens"`
			CacheRead  int `json:"cacheReadTokens"`
			CacheWrite int `json:"cacheWriteTokens"`
		} `json:"usage"`
	} `json:"modelMetrics"`
	TokenDetails map[string]struct {
		Count int `json:"tokenCount"`
	} `json:"tokenDetails"`
	CurrentTokens int `json:"currentTokens"`
}

// recordShutdown adds a process's totals to the session's: a resumed
// session appends one shutdown per process, and they sum. The usage by
// model is preferred; the token details describe the same tokens.
func (d *decoder) recordShutdown(raw json.RawMessage) {
	var sd shutdown
	if json.Unmarshal(raw, &sd) != nil {
		return
	}
	var u session.Usage
	calls, byModel := 0, false
	for _, m := range sd.ModelMetrics {
		if m.Usage != nil {
			byModel = true
			u.Input += max(m.Usage.Input-m.Usage.CacheRead, 0) // inputTokens include the cache reads
			u.Output += m.Usage.Output
			u.CacheRead += m.Usage.CacheRead
			u.CacheWrite += m.Usage.CacheWrite
		}
		var n int
		var obj struct {
			Count int `json:"count"`
		}
		if json.Unmarshal(m.Requests, &n) == nil {
			calls += n
		} else if json.Unmarshal(m.Requests, &obj) == nil {
			calls += obj.Count
		}
	}
	from := "session.shutdown.modelMetrics"
	if !byModel {
		from = "session.shutdown.tokenDetails"
		u = session.Usage{Input: sd.TokenDetails["input"].Count, Output: sd.TokenDetails["output"].Count,
			CacheRead: sd.TokenDetails["cache_read"].Count, CacheWrite: sd.TokenDetails["cache_write"].Count}
	}
	rec := d.s.Recorded
	if rec == nil {
		rec = &session.Recorded{From: from}
		d.s.Recorded = rec
	}
	rec.Usage.Add(u)
	rec.Calls += calls
	if sd.CurrentTokens > 0 {
		rec.Context = sd.CurrentTokens
	}
}
