package store

import (
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"fmt"
	"unsafe"
)

// blobThreshold is the size from which a block's text or arguments are
// kept in the blob table, once per distinct content, instead of inline.
// Tool outputs re-read across a session (the same file read twice, the
// same listing) then cost their size once.
const blobThreshold = 4 << 10

// blobPart is the size of the parts a blob longer than it is kept in:
// the blob's row then holds no data, and blob_parts holds the parts in
// order. Both engines copy a value they are given or return whole, so
// one row of 200 MB was two copies of 200 MB beside the text on import
// and two more when the index read it back; parts bound those copies by
// their size.
const blobPart = 1 << 20

// schemaBlobParts keeps the parts of blobs longer than blobPart. A blob
// whose row's data is shorter than its size is in parts.
const schemaBlobParts = `
CREATE TABLE blob_parts (
	hash TEXT NOT NULL,
	part INTEGER NOT NULL,
	data BLOB NOT NULL,
	PRIMARY KEY (hash, part)
) WITHOUT ROWID;
`

// readOnlyBytes is s as bytes, without a copy: splitLarge and putBlob
// only hash a text and hand it to the driver, which copies it into
// SQLite. A 200 MB block was copied whole here before, beside the decoded
// text and SQLite's own copy. The bytes must never be written.
func readOnlyBytes(s string) []byte {
	return unsafe.Slice(unsafe.StringData(s), len(s))
}

// contentHash returns the hex SHA-256 of data.
func contentHash(data []byte) string {
	h := sha256.Sum256(data)
	return hex.EncodeToString(h[:])
}

// putBlob stores data under its hash unless it is there already, and
// returns the hash. Data longer than blobPart goes in parts.
func (w *txWriter) putBlob(data []byte) (string, error) {
	h := contentHash(data)
	if w.bulk != nil && len(data) <= blobPart {
		return h, w.bulk.addBlob(h, data)
	}
	whole := data
	if len(data) > blobPart {
		whole = []byte{}
	}
	res, err := w.blob.Exec(h, len(data), whole)
	if err != nil {
		return "", fmt.Errorf("store blob: %w", err)
	}
	if len(data) <= blobPart {
		return h, nil
	}
	if n, err := res.RowsAffected(); err != nil {
		return "", fmt.Errorf("store blob: %w", err)
	} else if n == 0 {
		return h, nil // stored before, with its parts
	}
	for part := 0; len(data) > 0; part++ {
		n := min(len(data), blobPart)
		if _, err := w.tx.Exec(`INSERT INTO blob_parts (hash, part, data) VALUES (?,?,?)`, h, part, data[:n]); err != nil {
			return "", fmt.Errorf("store blob part %d: %w", part, err)
		}
		data = data[n:]
	}
	return h, nil
}

// splitLarge decides where a payload goes: inline (returned as the first
// value) or, from blobThreshold on, in the blob table (its hash returned as
// the second). A nil payload stays NULL in both places.
func (w *txWriter) splitLarge(data []byte, isText bool) (inline any, ref sql.NullString, err error) {
	if data == nil {
		return nil, ref, nil
	}
	if len(data) < blobThreshold {
		if isText {
			return string(data), ref, nil
		}
		return data, ref, nil
	}
	h, err := w.putBlob(data)
	if err != nil {
		return nil, ref, err
	}
	return nil, sql.NullString{String: h, Valid: true}, nil
}

// partedBlob is a block's text or arguments that a query found in parts:
// where to put it once the parts are read.
type partedBlob struct {
	hash string
	size int64
	put  func(data []byte)
}

// readParts reads each parted blob whole, into one buffer of its size,
// and hands it over. It runs after the query that found them is closed,
// since PostgreSQL runs one query at a time on a connection.
func readParts(tx *sql.Tx, blobs []partedBlob) error {
	for _, p := range blobs {
		data, err := readBlobParts(tx, p.hash, p.size)
		if err != nil {
			return err
		}
		p.put(data)
	}
	return nil
}

func readBlobParts(tx *sql.Tx, hash string, size int64) ([]byte, error) {
	rows, err := tx.Query(`SELECT data FROM blob_parts WHERE hash = ? ORDER BY part`, hash)
	if err != nil {
		return nil, fmt.Errorf("read blob %s: %w", hash, err)
	}
	defer rows.Close()
	data := make([]byte, 0, size)
	for rows.Next() {
		var part sql.RawBytes
		if err := rows.Scan(&part); err != nil {
			return nil, fmt.Errorf("read blob %s: %w", hash, err)
		}
		if int64(len(data)+len(part)) > size {
			return nil, fmt.Errorf("read blob %s: its parts hold more than its %d bytes", hash, size)
		}
		data = append(data, part...)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("read blob %s: %w", hash, err)
	}
	if int64(len(data)) != size {
		return nil, fmt.Errorf("read blob %s: its parts hold %d of its %d bytes", hash, len(data), size)
	}
	return data, nil
}

// gcBlobs deletes the blobs no block refers to any more, with their parts.
func gcBlobs(tx *sql.Tx) error {
	_, err := tx.Exec(`DELETE FROM blobs WHERE NOT EXISTS (SELECT 1 FROM blocks WHERE text_blob = blobs.hash)
		AND NOT EXISTS (SELECT 1 FROM blocks WHERE arguments_blob = blobs.hash)`)
	if err == nil {
		_, err = tx.Exec(`DELETE FROM blob_parts WHERE NOT EXISTS (SELECT 1 FROM blobs WHERE blobs.hash = blob_parts.hash)`)
	}
	if err != nil {
		return fmt.Errorf("collect unused blobs: %w", err)
	}
	return nil
}
