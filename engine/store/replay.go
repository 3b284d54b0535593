package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// ReplayKey is everything that decides a replay run's result. A cached
// run is reused only for the same key and the same session revision.
type ReplayKey struct {
	Session       string `json:"session"` // session key
	Policy        string `json:"policy"`
	Tau           int    `json:"tau"` // the eviction threshold τ, in tokens
	Tokenizer     string `json:"tokenizer"`
	EpisodeMode   string `json:"episodeMode"`
	EngineVersion string `json:"engineVersion"`
}

// ReplayRun is a cached replay: its key and the engine's own JSON.
type ReplayRun struct {
	Key      ReplayKey `json:"key"`
	Created  time.Time `json:"created"`
	Summary  []byte    `json:"summary"`  // opaque JSON written by the replay engine
	Timeline []byte    `json:"timeline"` // opaque JSON written by the replay engine
}

// PutReplay caches a replay run, replacing any run with the same key. The
// run is tied to the session's current revision: importing new records,
// or changing the session's episodes, invalidates it.
func (s *Store) PutReplay(ctx context.Context, r ReplayRun) error {
	k := r.Key
	return s.inTx(ctx, func(tx *sql.Tx) error {
		var id int64
		var rev int
		err := tx.QueryRow(`SELECT id, revision FROM sessions WHERE key = ?`, k.Session).Scan(&id, &rev)
		if errors.Is(err, sql.ErrNoRows) {
			return fmt.Errorf("session %q: %w", k.Session, ErrNotFound)
		}
		if err != nil {
			return err
		}
		_, err = tx.Exec(`INSERT INTO replay_runs (session_id, session_revision, policy, tau, tokenizer, episode_mode, engine_version, created_at, summary, timeline)
			VALUES (?,?,?,?,?,?,?,?,?,?)
			ON CONFLICT (session_id, policy, tau, tokenizer, episode_mode, engine_version) DO UPDATE SET
			session_revision = excluded.session_revision, created_at = excluded.created_at, summary = excluded.summary, timeline = excluded.timeline`,
			id, rev, k.Policy, k.Tau, k.Tokenizer, k.EpisodeMode, k.EngineVersion, timeText(time.Now()), orEmpty(r.Summary), orEmpty(r.Timeline))
		if err != nil {
			return fmt.Errorf("store replay: %w", err)
		}
		return nil
	})
}

// Replay returns the cached run for k, and false when there is none or it
// was computed from an earlier revision of the session.
func (s *Store) Replay(ctx context.Context, k ReplayKey) (ReplayRun, bool, error) {
	r := ReplayRun{Key: k}
	var created string
	err := s.read.QueryRowContext(ctx, `SELECT r.created_at, r.summary, r.timeline FROM replay_runs r JOIN sessions s ON s.id = r.session_id
		WHERE s.key = ? AND r.session_revision = s.revision AND r.policy = ? AND r.tau = ? AND r.tokenizer = ? AND r.episode_mode = ? AND r.engine_version = ?`,
		k.Session, k.Policy, k.Tau, k.Tokenizer, k.EpisodeMode, k.EngineVersion).Scan(&created, &r.Summary, &r.Timeline)
	if errors.Is(err, sql.ErrNoRows) {
		return ReplayRun{}, false, nil
	}
	if err != nil {
		return ReplayRun{}, false, fmt.Errorf("read replay: %w", err)
	}
	r.Created = parseTime(created)
	return r, true, nil
}

// PruneReplays deletes cached runs written by any engine version other
// than current, and runs of an earlier session revision, and returns how
// many it deleted.
func (s *Store) PruneReplays(ctx context.Context, current string) (int, error) {
	var n int64
	err := s.inTx(ctx, func(tx *sql.Tx) error {
		r, err := tx.Exec(`DELETE FROM replay_runs WHERE engine_version != ?
			OR session_revision != (SELECT revision FROM sessions WHERE id = replay_runs.session_id)`, current)
		if err != nil {
			return fmt.Errorf("prune replays: %w", err)
		}
		n, err = r.RowsAffected()
		return err
	})
	return int(n), err
}

func orEmpty(b []byte) []byte {
	if b == nil {
		return []byte{}
	}
	return b
}
