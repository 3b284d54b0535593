package store

import (
	"database/sql"
	"fmt"
)

// bulkRows is how many rows of a table an import on PostgreSQL holds
// before copying them in. Each statement is a round trip to the server
// (about 50 µs over a local socket), which SQLite, in the process, does
// not pay: an import that wrote each entry and block with its own
// statement ran at 0.13× SQLite's speed.
const bulkRows = 1000

// copyRows writes rows into the columns of table in one operation (on
// PostgreSQL, COPY through the transaction's connection).
type copyRows func(table string, columns []string, rows [][]any) error

// bulk holds the entry and block rows of an import on PostgreSQL until
// there are bulkRows of a table, or until the import reads or deletes what
// it wrote (flush). Each row's id is taken ahead from its table's identity
// sequence, bulkRows at a time, so that a block knows its entry's id, and a
// tool result's content its parent block's, before either is written.
type bulk struct {
	tx              *sql.Tx
	copy            copyRows
	ids             map[string]idRange // ids taken and not used yet, by table
	entries, blocks [][]any            // rows to write, id first
	// blobs are the blobs to write (hash, size, data), each once: the
	// blocks that refer to them are written after them.
	blobs  [][]any
	queued map[string]bool
}

// entryColumns and blockColumns are the columns of the rows bulk writes,
// in the order of their values.
var (
	entryColumns = []string{"id", "thread_id", "ord", "eid", "parent_eid", "line", "time", "kind", "type", "value", "target", "raw",
		"summary", "first_kept", "tokens_before", "role", "origin", "msg_id", "provider", "model", "stop_reason", "error", "msg_time", "excluded", "blocks_empty", "usage"}
	blobColumns  = []string{"hash", "size", "data"}
	blockColumns = []string{"id", "entry_id", "parent_id", "ord", "type", "text", "text_blob", "redacted", "tool_call_id", "tool_name",
		"arguments", "arguments_blob", "is_error", "details", "mime", "content_empty", "size", "implicit"}
)

// idRange is the ids from next to end (excluded) of a table, taken and
// not used yet.
type idRange struct{ next, end int64 }

// id returns a new row id of table.
func (b *bulk) id(table string) (int64, error) {
	r := b.ids[table]
	if r.next == r.end {
		first, err := b.reserve(table, bulkRows)
		if err != nil {
			return 0, err
		}
		r = idRange{first, first + bulkRows}
	}
	b.ids[table] = idRange{r.next + 1, r.end}
	return r.next, nil
}

// reserve takes n consecutive ids of table from its identity sequence in
// one step and returns the first: it moves the sequence n on at once,
// where n calls of nextval cost the server about 4 µs each. The two calls
// are one statement but not one atomic step; they need no other, since
// every writer holds the workspace's write lock (see writeLock), and
// nothing else takes ids. A transaction that rolls back leaves its range
// unused, as nextval would.
func (b *bulk) reserve(table string, n int64) (int64, error) {
	var last int64
	seq := `pg_get_serial_sequence('` + table + `', 'id')`
	if err := b.tx.QueryRow(`SELECT setval(`+seq+`, nextval(`+seq+`) + ? - 1)`, n).Scan(&last); err != nil {
		return 0, fmt.Errorf("take %s ids: %w", table, err)
	}
	return last - n + 1, nil
}

// add queues an entry or block row and writes the queues when one is
// full.
func (b *bulk) add(queue *[][]any, row []any) error {
	*queue = append(*queue, row)
	if len(*queue) < bulkRows {
		return nil
	}
	return b.flush()
}

// addBlob queues a blob (up to blobPart bytes) unless it is queued
// already; the flush writes it unless it is stored.
func (b *bulk) addBlob(hash string, data []byte) error {
	if b.queued[hash] {
		return nil
	}
	if b.queued == nil {
		b.queued = map[string]bool{}
	}
	b.queued[hash] = true
	return b.add(&b.blobs, []any{hash, len(data), data})
}

// flush writes the queued rows: the blobs not stored yet, then entries,
// whose ids the blocks reference, then blocks in the order they were
// queued (a parent block before its content, which references it, in the
// same operation).
func (b *bulk) flush() error {
	if b == nil {
		return nil
	}
	if err := b.writeBlobs(); err != nil {
		return err
	}
	if err := b.write("entries", entryColumns, b.entries); err != nil {
		return err
	}
	b.entries = b.entries[:0]
	if err := b.write("blocks", blockColumns, b.blocks); err != nil {
		return err
	}
	b.blocks = b.blocks[:0]
	return nil
}

// writeBlobs writes the queued blobs that are not stored yet. Writers
// take the workspace's write lock, so none is stored between the look and
// the copy.
func (b *bulk) writeBlobs() error {
	if len(b.blobs) == 0 {
		return nil
	}
	hashes := make([]string, len(b.blobs))
	for k, r := range b.blobs {
		hashes[k] = r[0].(string)
	}
	stored := map[string]bool{}
	rows, err := b.tx.Query(`SELECT hash FROM blobs WHERE hash = ANY(?)`, hashes)
	if err != nil {
		return fmt.Errorf("look up blobs: %w", err)
	}
	for rows.Next() {
		var h string
		if err := rows.Scan(&h); err != nil {
			rows.Close()
			return err
		}
		stored[h] = true
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return fmt.Errorf("look up blobs: %w", err)
	}
	fresh := b.blobs[:0]
	for _, r := range b.blobs {
		if !stored[r[0].(string)] {
			fresh = append(fresh, r)
		}
	}
	if err := b.write("blobs", blobColumns, fresh); err != nil {
		return err
	}
	clear(b.blobs)
	b.blobs, b.queued = b.blobs[:0], nil
	return nil
}

// write copies rows into table.
func (b *bulk) write(table string, columns []string, rows [][]any) error {
	if len(rows) == 0 {
		return nil
	}
	if err := b.copy(table, columns, rows); err != nil {
		return fmt.Errorf("insert %d %s: %w", len(rows), table, err)
	}
	return nil
}
