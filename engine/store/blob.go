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
// returns the hash.
func (w *txWriter) putBlob(data []byte) (string, error) {
	h := contentHash(data)
	if _, err := w.blob.Exec(h, len(data), data); err != nil {
		return "", fmt.Errorf("store blob: %w", err)
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

// gcBlobs deletes the blobs no block refers to any more.
func gcBlobs(tx *sql.Tx) error {
	_, err := tx.Exec(`DELETE FROM blobs WHERE NOT EXISTS (SELECT 1 FROM blocks WHERE text_blob = blobs.hash)
		AND NOT EXISTS (SELECT 1 FROM blocks WHERE arguments_blob = blobs.hash)`)
	if err != nil {
		return fmt.Errorf("collect unused blobs: %w", err)
	}
	return nil
}
