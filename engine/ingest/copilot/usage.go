package copilot

import (
	"encoding/json"

	"ctxscope/engine/ingest/jsonl"
	"ctxscope/engine/session"
)

// Copilot CLI 1.0.10x records each model call's usage in a
// session.usage_record event, before the assistant.message of the same
// call (both carry its apiCallId). Its inputTokens already include the
// cacheReadTokens (as OpenAI's prompt_tokens include cached_tokens): the
// uncached input is their difference, and adding them counted the cache
// twice.

// maxWaiting bounds the responses kept waiting for a usage record that
// follows them.
const maxWaiting = 64

// usageRecord is the usage of one model call.
type usageRecord struct {
	Usage struct {
		InputTokens      int     `json:"inputTokens"`
		OutputTokens     int     `json:"outputTokens"`
		CacheReadTokens  int     `json:"cacheReadTokens"`
		CacheWriteTokens int     `json:"cacheWriteTokens"`
		Cost             float64 `json:"cost"`
		APICallID        string  `json:"apiCallId"`
	} `json:"usage"`
}

// normalized is the record's usage in ctxscope's terms.
func (r usageRecord) normalized() *session.Usage {
	u := r.Usage
	return &session.Usage{Input: max(u.InputTokens-u.CacheReadTokens, 0), CacheRead: u.CacheReadTokens,
		CacheWrite: u.CacheWriteTokens, Output: u.OutputTokens, Cost: u.Cost}
}

// recordUsage gives a call's usage to its response: the one already read
// when the record follows it, else the one that comes with its apiCallId.
func (d *decoder) recordUsage(raw json.RawMessage) {
	var r usageRecord
	if json.Unmarshal(raw, &r) != nil || r.Usage.APICallID == "" {
		return
	}
	if p, ok := d.responses[r.Usage.APICallID]; ok {
		p.e.Message.Usage = r.normalized()
		delete(d.responses, r.Usage.APICallID)
		d.out = append(d.out, jsonl.Update{Thread: p.t, Entry: p.e, Merged: true})
		return
	}
	d.usages[r.Usage.APICallID] = r.normalized()
}

// usageOf is the usage recorded for the call apiCallID before its
// response, nil when none was.
func (d *decoder) usageOf(apiCallID string) *session.Usage {
	u, ok := d.usages[apiCallID]
	if ok {
		delete(d.usages, apiCallID)
	}
	return u
}
