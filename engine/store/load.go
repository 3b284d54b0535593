package store

import (
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"unsafe"

	"ctxscope/engine/session"
)

// ErrNotFound is returned when a session or other named item is not in
// the workspace.
var ErrNotFound = errors.New("store: not found")

// Load reads the session stored under key back into the normalized model.
// The result is equivalent to what the importer produced: the same
// threads, entries, messages and blocks, in the same order.
func (s *Store) Load(key string) (*session.Session, error) {
	tx, err := s.read.Begin() // one snapshot for all the queries
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	ss, id, err := loadSession(tx, key)
	if err != nil {
		return nil, err
	}
	return loadContent(tx, ss, id)
}

// loadContent reads the threads, entries and blocks of session row id
// into ss.
func loadContent(tx *sql.Tx, ss *session.Session, id int64) (*session.Session, error) {
	threads, err := loadThreads(tx, id)
	if err != nil {
		return nil, err
	}
	ss.Threads = threads
	entries, err := loadEntries(tx, id, threads)
	if err != nil {
		return nil, err
	}
	if err := loadBlocks(tx, id, entries); err != nil {
		return nil, err
	}
	return ss, nil
}

func loadSession(tx *sql.Tx, key string) (*session.Session, int64, error) {
	var (
		id             int64
		ss             session.Session
		started, diags string
		recorded       string
		format         string
	)
	err := tx.QueryRow(`SELECT id, sid, format, version, agent, source, title, cwd, started, diagnostics, size, recorded FROM sessions WHERE key = ?`, key).
		Scan(&id, &ss.ID, &format, &ss.Version, &ss.Agent, &ss.Source, &ss.Title, &ss.CWD, &started, &diags, &ss.Size, &recorded)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, 0, fmt.Errorf("session %q: %w", key, ErrNotFound)
	}
	if err != nil {
		return nil, 0, fmt.Errorf("load session %q: %w", key, err)
	}
	ss.Format, ss.Started, ss.Recorded = session.Format(format), parseTime(started), parseRecorded(recorded)
	if err := json.Unmarshal([]byte(diags), &ss.Diagnostics); err != nil {
		return nil, 0, fmt.Errorf("load session %q: diagnostics: %w", key, err)
	}
	return &ss, id, nil
}

func loadThreads(tx *sql.Tx, sessionID int64) ([]*session.Thread, error) {
	rows, err := tx.Query(`SELECT tid, kind, parent_tid, title, leaf_id FROM threads WHERE session_id = ? ORDER BY ord`, sessionID)
	if err != nil {
		return nil, fmt.Errorf("load threads: %w", err)
	}
	defer rows.Close()
	var out []*session.Thread
	for rows.Next() {
		t := &session.Thread{}
		var kind string
		if err := rows.Scan(&t.ID, &kind, &t.ParentID, &t.Title, &t.LeafID); err != nil {
			return nil, err
		}
		t.Kind = session.ThreadKind(kind)
		out = append(out, t)
	}
	return out, rows.Err()
}

// loadEntries fills the threads' entries and returns them by row id.
func loadEntries(tx *sql.Tx, sessionID int64, threads []*session.Thread) (map[int64]*session.Entry, error) {
	rows, err := tx.Query(`SELECT e.id, t.ord, e.eid, e.parent_eid, e.line, e.time, e.kind, e.type, e.value, e.target, e.raw,
		e.summary, e.first_kept, e.tokens_before, e.role, e.origin, e.msg_id, e.provider, e.model, e.stop_reason, e.error,
		e.msg_time, e.excluded, e.blocks_empty, e.usage
		FROM entries e JOIN threads t ON t.id = e.thread_id WHERE t.session_id = ? ORDER BY t.ord, e.ord`, sessionID)
	if err != nil {
		return nil, fmt.Errorf("load entries: %w", err)
	}
	defer rows.Close()
	byID := map[int64]*session.Entry{}
	for rows.Next() {
		id, tord, e, err := scanEntry(rows)
		if err != nil {
			return nil, fmt.Errorf("load entries: %w", err)
		}
		if tord < 0 || tord >= len(threads) {
			return nil, fmt.Errorf("load entries: entry %q in missing thread %d", e.ID, tord)
		}
		threads[tord].Entries = append(threads[tord].Entries, e)
		byID[id] = e
	}
	return byID, rows.Err()
}

func scanEntry(rows *sql.Rows) (int64, int, *session.Entry, error) {
	var (
		id                                int64
		tord                              int
		e                                 session.Entry
		tm, kind                          string
		raw                               []byte
		summary, firstKept                sql.NullString
		tokensBefore                      sql.NullInt64
		role, origin, msgID, provider     sql.NullString
		model, stop, msgErr, msgTime, use sql.NullString
		excluded, blocksEmpty             sql.NullBool
	)
	err := rows.Scan(&id, &tord, &e.ID, &e.ParentID, &e.Line, &tm, &kind, &e.Type, &e.Value, &e.Target, &raw,
		&summary, &firstKept, &tokensBefore, &role, &origin, &msgID, &provider, &model, &stop, &msgErr,
		&msgTime, &excluded, &blocksEmpty, &use)
	if err != nil {
		return 0, 0, nil, err
	}
	e.Time, e.Kind = parseTime(tm), session.EntryKind(kind)
	if raw != nil {
		e.Raw = json.RawMessage(raw)
	}
	if summary.Valid {
		e.Compaction = &session.Compaction{Summary: summary.String, FirstKeptID: firstKept.String, TokensBefore: int(tokensBefore.Int64)}
	}
	if role.Valid {
		m := &session.Message{Role: session.Role(role.String), Origin: origin.String, ID: msgID.String, Provider: provider.String,
			Model: model.String, StopReason: stop.String, Error: msgErr.String, Time: parseTime(msgTime.String), Excluded: excluded.Bool}
		if blocksEmpty.Bool {
			m.Blocks = []session.Block{}
		}
		if use.Valid {
			m.Usage = &session.Usage{}
			if err := json.Unmarshal([]byte(use.String), m.Usage); err != nil {
				return 0, 0, nil, fmt.Errorf("entry %q usage: %w", e.ID, err)
			}
		}
		e.Message = m
	}
	return id, tord, &e, nil
}

// loadBlocks fills the messages' blocks. Blocks are read in row order,
// which is the order they were written: each block before its content
// blocks, and content blocks before the block's next sibling.
func loadBlocks(tx *sql.Tx, sessionID int64, entries map[int64]*session.Entry) error {
	return fillBlocks(tx, entries, `JOIN threads t ON t.id = e.thread_id WHERE t.session_id = ?`, sessionID)
}

// fillBlocks reads the blocks of the entries the query's join and where
// clause select (the entries are e) into entries, by row id. Texts and
// arguments kept in parts are read once the query is done.
func fillBlocks(tx *sql.Tx, entries map[int64]*session.Entry, where string, args ...any) error {
	parted, err := scanBlocks(tx, entries, where, args...)
	if err != nil {
		return err
	}
	if err := readParts(tx, parted); err != nil {
		return fmt.Errorf("load blocks: %w", err)
	}
	return nil
}

// scanBlocks reads the blocks the query's where clause selects into their
// entries' messages (or their parent blocks), in order, and returns the
// blobs in parts that they still wait for.
func scanBlocks(tx *sql.Tx, entries map[int64]*session.Entry, where string, args ...any) ([]partedBlob, error) {
	rows, err := tx.Query(`SELECT b.id, b.entry_id, b.parent_id, b.type, b.text, tb.data, b.redacted, b.tool_call_id, b.tool_name,
		COALESCE(b.arguments, ab.data), b.is_error, b.details, b.mime, b.content_empty, b.size, b.implicit,
		b.text_blob, tb.size, b.arguments_blob, ab.size
		FROM blocks b JOIN entries e ON e.id = b.entry_id
		LEFT JOIN blobs tb ON tb.hash = b.text_blob LEFT JOIN blobs ab ON ab.hash = b.arguments_blob
		`+where+` ORDER BY b.id`, args...)
	if err != nil {
		return nil, fmt.Errorf("load blocks: %w", err)
	}
	defer rows.Close()
	pl := blockPlaces{entries: entries, placed: map[int64]blockPlace{}}
	var parted []partedBlob
	for rows.Next() {
		r, err := scanBlock(rows)
		if err != nil {
			return nil, fmt.Errorf("load blocks: %w", err)
		}
		if err := pl.add(r); err != nil {
			return nil, fmt.Errorf("load blocks: %w", err)
		}
		id := r.id
		if r.textParts.Valid {
			parted = append(parted, partedBlob{hash: r.textParts.String, size: r.textSize, put: func(data []byte) {
				pl.find(id).Text = unsafe.String(unsafe.SliceData(data), len(data))
			}})
		}
		if r.argsParts.Valid {
			parted = append(parted, partedBlob{hash: r.argsParts.String, size: r.argsSize, put: func(data []byte) {
				pl.find(id).Arguments = data
			}})
		}
	}
	return parted, rows.Err()
}

// blockPlaces puts blocks where they belong as they are read, and finds a
// block again by its id. A pointer to a block does not survive the
// appends that come after it, so each block is remembered by its indexes
// from its entry down.
type blockPlaces struct {
	entries map[int64]*session.Entry
	placed  map[int64]blockPlace
}

// blockPlace is where a block was appended.
type blockPlace struct {
	entry  int64
	parent int64 // 0 for a message's own block
	index  int
}

// add appends r's block to its parent block's content, or to its entry's
// message.
func (pl *blockPlaces) add(r blockRow) error {
	var list *[]session.Block
	if r.parent.Valid {
		if _, ok := pl.placed[r.parent.Int64]; !ok {
			return fmt.Errorf("block %d has no parent %d", r.id, r.parent.Int64)
		}
		list = &pl.find(r.parent.Int64).Content
	} else {
		e, ok := pl.entries[r.entryID]
		if !ok || e.Message == nil {
			return fmt.Errorf("block %d belongs to no message", r.id)
		}
		list = &e.Message.Blocks
	}
	*list = append(*list, r.block)
	pl.placed[r.id] = blockPlace{entry: r.entryID, parent: r.parent.Int64, index: len(*list) - 1}
	return nil
}

// find returns the block added with id, where it is now.
func (pl *blockPlaces) find(id int64) *session.Block {
	var path []int
	at := pl.placed[id]
	for ; at.parent != 0; at = pl.placed[at.parent] {
		path = append(path, at.index)
	}
	b := &pl.entries[at.entry].Message.Blocks[at.index]
	for i := len(path) - 1; i >= 0; i-- {
		b = &b.Content[path[i]]
	}
	return b
}

// blockRow is one row of the blocks query: a block, where it goes, and
// the blobs of its text or arguments that are in parts (their hash is
// valid when so).
type blockRow struct {
	id, entryID int64
	parent      sql.NullInt64
	block       session.Block
	textParts   sql.NullString
	textSize    int64
	argsParts   sql.NullString
	argsSize    int64
}

// scanBlock reads one row of the blocks query.
func scanBlock(rows *sql.Rows) (r blockRow, err error) {
	var (
		typ, mime          string
		text, textBlob     sql.RawBytes
		args, details      []byte
		contentEmpty       bool
		textHash, argsHash sql.NullString
		textSize, argsSize sql.NullInt64
	)
	b := &r.block
	// A text is inline (the text column) or, when large, in the blob
	// table: bytes in both engines, while the text column is text. It is
	// scanned as the driver's bytes and copied once, into the block's
	// string (scanned into []byte, a 200 MB text was copied twice).
	err = rows.Scan(&r.id, &r.entryID, &r.parent, &typ, &text, &textBlob, &b.Redacted, &b.ToolCallID, &b.ToolName,
		&args, &b.IsError, &details, &mime, &contentEmpty, &b.Size, &b.Implicit,
		&textHash, &textSize, &argsHash, &argsSize)
	if err != nil {
		return
	}
	if text == nil {
		text = textBlob
	}
	if textHash.Valid && int64(len(text)) < textSize.Int64 {
		r.textParts, r.textSize, text = textHash, textSize.Int64, nil
	}
	if argsHash.Valid && int64(len(args)) < argsSize.Int64 {
		r.argsParts, r.argsSize, args = argsHash, argsSize.Int64, nil
	}
	b.Type, b.Text, b.MIME = session.BlockType(typ), string(text), mime
	if args != nil {
		b.Arguments = json.RawMessage(args)
	}
	if details != nil {
		b.Details = json.RawMessage(details)
	}
	if contentEmpty {
		b.Content = []session.Block{}
	}
	return
}
