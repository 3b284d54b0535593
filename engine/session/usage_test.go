package session

import "testing"

func TestUsageAdd(t *testing.T) {
	u := Usage{Input: 1, Output: 2, CacheRead: 3, CacheWrite: 4, Reasoning: 5, Cost: 0.5, ContextWindow: 1000}
	u.Add(Usage{Input: 10, Output: 20, CacheRead: 30, CacheWrite: 40, Reasoning: 50, Cost: 0.25, ContextWindow: 2000})
	want := Usage{Input: 11, Output: 22, CacheRead: 33, CacheWrite: 44, Reasoning: 55, Cost: 0.75, ContextWindow: 1000}
	if u != want {
		t.Errorf("%+v, want %+v", u, want)
	}
}
