package norm

import "ctxscope/engine/session"

// ChatUsage is the usage object of an OpenAI Chat Completions response,
// as the API, LiteLLM and OpenHands write it: prompt tokens counting the
// cached ones among them.
type ChatUsage struct {
	Prompt     int `json:"prompt_tokens"`
	Completion int `json:"completion_tokens"`
	Details    *struct {
		Cached int `json:"cached_tokens"`
	} `json:"prompt_tokens_details"`
}

// Session is u in the session model, with the cached input apart from the
// rest; nil for no usage.
func (u *ChatUsage) Session() *session.Usage {
	if u == nil {
		return nil
	}
	out := &session.Usage{Input: u.Prompt, Output: u.Completion}
	if u.Details != nil {
		out.Input -= u.Details.Cached
		out.CacheRead = u.Details.Cached
	}
	return out
}
