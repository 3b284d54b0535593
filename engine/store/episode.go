package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"

	"ctxscope/engine/cwl"
	"ctxscope/engine/session"
)

// Episode origins: who decided where an episode begins and ends.
const (
	// OriginDelimiter marks episodes the agent itself declared with CWL
	// delimiter calls; the store derives them on every import.
	OriginDelimiter = "delimiter"
)

// Episode is a stored episode of a session thread.
type Episode struct {
	Origin       string   `json:"origin"` // OriginDelimiter, or the name of the segmenter or annotator that made it
	Thread       string   `json:"thread"`
	Name         string   `json:"name"`
	Kind         string   `json:"kind"` // cwl.KindExpl, cwl.KindAct, or another segmenter's label
	Description  string   `json:"description"`
	Dependencies []string `json:"dependencies"`
	Completed    bool     `json:"completed"`
	StartEntry   string   `json:"startEntry"` // id of the entry where the episode starts
	EndEntry     string   `json:"endEntry"`   // id of the entry where it ends (the last one while open)
}

// delimiterEpisodes finds the episodes that delimiter calls declare on the
// active branch of each thread.
func delimiterEpisodes(ss *session.Session) []Episode {
	var out []Episode
	for _, t := range ss.Threads {
		tr := session.NewTree(t)
		leaf := tr.Leaf()
		if leaf < 0 {
			continue
		}
		var msgs []*session.Message
		var entries []*session.Entry
		for _, i := range tr.PathTo(leaf) {
			e := t.Entries[i]
			if e.Message != nil {
				msgs, entries = append(msgs, e.Message), append(entries, e)
			}
		}
		for _, sg := range cwl.SegmentMessages(msgs) {
			out = append(out, Episode{Origin: OriginDelimiter, Thread: t.ID, Name: sg.Name, Kind: sg.Kind, Description: sg.Description,
				Dependencies: sg.Dependencies, Completed: sg.Completed, StartEntry: entries[sg.Start].ID, EndEntry: entries[sg.End].ID})
		}
	}
	return out
}

// PutEpisodes replaces the session's episodes of the given origin.
func (s *Store) PutEpisodes(ctx context.Context, key, origin string, eps []Episode) error {
	return s.inTx(ctx, func(tx *sql.Tx) error {
		id, err := sessionID(tx, key)
		if err != nil {
			return err
		}
		for i := range eps {
			eps[i].Origin = origin
		}
		if err := writeEpisodes(tx, id, origin, eps); err != nil {
			return err
		}
		if err := recordChange(tx, ChangeSessions); err != nil {
			return err
		}
		return bumpRevision(tx, id)
	})
}

func writeEpisodes(tx *sql.Tx, sessionID int64, origin string, eps []Episode) error {
	if _, err := tx.Exec(`DELETE FROM episodes WHERE session_id = ? AND origin = ?`, sessionID, origin); err != nil {
		return fmt.Errorf("delete episodes: %w", err)
	}
	ord := map[string]int{}
	for _, ep := range eps {
		deps := ep.Dependencies
		if deps == nil {
			deps = []string{}
		}
		dj, err := json.Marshal(deps)
		if err != nil {
			return err
		}
		_, err = tx.Exec(`INSERT INTO episodes (session_id, origin, thread, ord, name, kind, description, dependencies, completed, start_entry, end_entry)
			VALUES (?,?,?,?,?,?,?,?,?,?,?)`, sessionID, origin, ep.Thread, ord[ep.Thread], ep.Name, ep.Kind, ep.Description, string(dj),
			ep.Completed, ep.StartEntry, ep.EndEntry)
		if err != nil {
			return fmt.Errorf("insert episode %q: %w", ep.Name, err)
		}
		ord[ep.Thread]++
	}
	return nil
}

// Episodes returns the session's episodes of every origin, by origin,
// thread and position.
func (s *Store) Episodes(ctx context.Context, key string) ([]Episode, error) {
	rows, err := s.read.QueryContext(ctx, `SELECT origin, thread, name, kind, description, dependencies, completed, start_entry, end_entry
		FROM episodes WHERE session_id = (SELECT id FROM sessions WHERE key = ?) ORDER BY origin, thread, ord`, key)
	if err != nil {
		return nil, fmt.Errorf("read episodes: %w", err)
	}
	defer rows.Close()
	var out []Episode
	for rows.Next() {
		var ep Episode
		var deps string
		if err := rows.Scan(&ep.Origin, &ep.Thread, &ep.Name, &ep.Kind, &ep.Description, &deps, &ep.Completed, &ep.StartEntry, &ep.EndEntry); err != nil {
			return nil, err
		}
		if err := json.Unmarshal([]byte(deps), &ep.Dependencies); err != nil {
			return nil, fmt.Errorf("episode %q dependencies: %w", ep.Name, err)
		}
		out = append(out, ep)
	}
	return out, rows.Err()
}
