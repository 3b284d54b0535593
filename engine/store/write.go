package store

import (
	"database/sql"
	"encoding/json"
	"fmt"
	"time"

	"ctxscope/engine/session"
)

// txWriter inserts session rows inside one transaction through statements
// prepared once per transaction, or, on a server (copy not nil), in
// batches of rows (see bulk): whoever then reads or deletes entries or
// blocks the transaction wrote calls flush first.
type txWriter struct {
	tx                         *sql.Tx
	thread, entry, block, blob *sql.Stmt
	bulk                       *bulk // nil: each row as it comes
}

func newTxWriter(tx *sql.Tx, copy copyRows) (*txWriter, error) {
	w := &txWriter{tx: tx}
	if copy != nil {
		w.bulk = &bulk{tx: tx, copy: copy, ids: map[string]idRange{}}
	}
	var err error
	prep := func(q string) *sql.Stmt {
		if err != nil {
			return nil
		}
		var st *sql.Stmt
		st, err = tx.Prepare(q)
		return st
	}
	w.thread = prep(`INSERT INTO threads (session_id, ord, tid, kind, parent_tid, title, leaf_id) VALUES (?,?,?,?,?,?,?) RETURNING id`)
	w.blob = prep(`INSERT INTO blobs (hash, size, data) VALUES (?,?,?) ON CONFLICT DO NOTHING`) // on a server, for blobs in parts
	// On a server, entries and blocks go in batches: preparing their
	// statements would only cost round trips (and, on a new connection,
	// the server's reading of its catalogue).
	if w.bulk == nil {
		w.entry = prep(`INSERT INTO entries (thread_id, ord, eid, parent_eid, line, time, kind, type, value, target, raw,
		summary, first_kept, tokens_before, role, origin, msg_id, provider, model, stop_reason, error, msg_time, excluded, blocks_empty, usage)
		VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?) RETURNING id`)
		w.block = prep(`INSERT INTO blocks (entry_id, parent_id, ord, type, text, text_blob, redacted, tool_call_id, tool_name,
		arguments, arguments_blob, is_error, details, mime, content_empty, size, implicit) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?) RETURNING id`)
	}
	if err != nil {
		w.close()
		return nil, fmt.Errorf("prepare: %w", err)
	}
	return w, nil
}

// flush writes the rows held for a batch.
func (w *txWriter) flush() error { return w.bulk.flush() }

func (w *txWriter) close() {
	for _, st := range []*sql.Stmt{w.thread, w.entry, w.block, w.blob} {
		if st != nil {
			st.Close()
		}
	}
}

// insertThread writes a thread row without its entries.
func (w *txWriter) insertThread(sessionID int64, ord int, t *session.Thread) (int64, error) {
	var id int64
	if err := w.thread.QueryRow(sessionID, ord, t.ID, string(t.Kind), t.ParentID, t.Title, t.LeafID).Scan(&id); err != nil {
		return 0, fmt.Errorf("insert thread %q: %w", t.ID, err)
	}
	return id, nil
}

// insertEntries writes entries as positions from, from+1, ... of a thread.
func (w *txWriter) insertEntries(threadID int64, from int, es []*session.Entry) error {
	for i, e := range es {
		if err := w.insertEntry(threadID, from+i, e); err != nil {
			return err
		}
	}
	return nil
}

func (w *txWriter) insertEntry(threadID int64, ord int, e *session.Entry) error {
	args := []any{threadID, ord, e.ID, e.ParentID, e.Line, timeText(e.Time), string(e.Kind), e.Type, e.Value, e.Target, nullBytes(e.Raw)}
	if c := e.Compaction; c != nil {
		args = append(args, c.Summary, c.FirstKeptID, c.TokensBefore)
	} else {
		args = append(args, nil, nil, nil)
	}
	if m := e.Message; m != nil {
		usage, err := usageText(m.Usage)
		if err != nil {
			return err
		}
		args = append(args, string(m.Role), m.Origin, m.ID, m.Provider, m.Model, m.StopReason, m.Error,
			timeText(m.Time), m.Excluded, m.Blocks != nil && len(m.Blocks) == 0, usage)
	} else {
		args = append(args, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil)
	}
	var id int64
	if w.bulk != nil {
		var err error
		if id, err = w.bulk.id("entries"); err != nil {
			return err
		}
		if err := w.bulk.add(&w.bulk.entries, append([]any{id}, args...)); err != nil {
			return fmt.Errorf("insert entry %q (line %d): %w", e.ID, e.Line, err)
		}
	} else if err := w.entry.QueryRow(args...).Scan(&id); err != nil {
		return fmt.Errorf("insert entry %q (line %d): %w", e.ID, e.Line, err)
	}
	if e.Message == nil || len(e.Message.Blocks) == 0 {
		return nil
	}
	return w.insertBlocks(id, sql.NullInt64{}, e.Message.Blocks)
}

// insertBlocks writes blocks in order, and the content of tool results as
// child blocks.
func (w *txWriter) insertBlocks(entryID int64, parent sql.NullInt64, bs []session.Block) error {
	for i := range bs {
		b := &bs[i]
		var text []byte
		if b.Text != "" {
			text = readOnlyBytes(b.Text)
		}
		textInline, textRef, err := w.splitLarge(text, true)
		if err != nil {
			return err
		}
		argsInline, argsRef, err := w.splitLarge(b.Arguments, false)
		if err != nil {
			return err
		}
		row := []any{entryID, parent, i, string(b.Type), textInline, textRef, b.Redacted, b.ToolCallID, b.ToolName,
			argsInline, argsRef, b.IsError, nullBytes(b.Details), b.MIME, b.Content != nil && len(b.Content) == 0, b.Size, b.Implicit}
		var id int64
		if w.bulk != nil {
			if id, err = w.bulk.id("blocks"); err == nil {
				err = w.bulk.add(&w.bulk.blocks, append([]any{id}, row...))
			}
		} else {
			err = w.block.QueryRow(row...).Scan(&id)
		}
		if err != nil {
			return fmt.Errorf("insert block: %w", err)
		}
		if len(b.Content) == 0 {
			continue
		}
		if err := w.insertBlocks(entryID, sql.NullInt64{Int64: id, Valid: true}, b.Content); err != nil {
			return err
		}
	}
	return nil
}

// timeText formats a time for the database: RFC 3339 in UTC, "" for the
// zero time.
func timeText(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format(time.RFC3339Nano)
}

// parseTime reads what timeText wrote.
func parseTime(s string) time.Time {
	if s == "" {
		return time.Time{}
	}
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return time.Time{}
	}
	return t.UTC()
}

func nullBytes(b []byte) any {
	if b == nil {
		return nil
	}
	return []byte(b)
}

func usageText(u *session.Usage) (any, error) {
	if u == nil {
		return nil, nil
	}
	b, err := json.Marshal(u)
	if err != nil {
		return nil, err
	}
	return string(b), nil
}
