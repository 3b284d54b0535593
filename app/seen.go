package app

import (
	"context"
)

func seenSetting(key string) string { return "seen:" + key }

// seen returns how many requests of a session the user has seen.
func (s *Sessions) seen(key string) int {
	var n int
	s.app.local.get(seenSetting(key), &n)
	return n
}

// MarkSeen records that the user has seen the first requests requests of
// a session: what comes after is "new since last seen".
func (s *Sessions) MarkSeen(ctx context.Context, key string, requests int) error {
	s.app.called("Sessions.MarkSeen", key, requests)
	if requests < 0 {
		return nil
	}
	if _, err := s.get(ctx, key); err != nil {
		return err
	}
	return s.app.local.put(seenSetting(key), requests)
}
