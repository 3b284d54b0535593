package session

// Recorded is what an agent itself recorded about a whole session: its
// running totals of usage and cost, and the size of the context it last
// measured. It can differ from the sum over the session's responses, and
// the difference is information: calls the file holds no response for (a
// condenser's, a title generator's, a response cut off by the end of the
// file), or usage the agent does not attribute to a response at all.
type Recorded struct {
	// Usage is the agent's total. Fields the agent does not record are 0.
	Usage Usage `json:"usage"`
	// Calls is the number of model calls the agent counted, 0 if it did
	// not say.
	Calls int `json:"calls,omitempty"`
	// Context is the size in tokens of the context the agent last
	// measured (Copilot CLI's currentTokens), 0 if it did not say.
	Context int `json:"context,omitempty"`
	// From names the record the totals were read from, for example
	// "token_count.info.total_token_usage".
	From string `json:"from"`
}
