package store

import (
	"database/sql"
	"fmt"
	"io"

	"ctxscope/engine/ingest"
	"ctxscope/engine/session"
)

// writeEach imports the sessions of a file whose format is read whole
// (JSON documents, Inspect logs, files of several sessions): each session
// is written as soon as the importer has read it, so that a file of many
// sessions never holds more than one in memory. It is the one place,
// with streamSession, where the workspace calls the importers. copy, when
// not nil, writes rows in batches (see txWriter).
func writeEach(tx *sql.Tx, copy copyRows, srcID int64, act Action, im ingest.Importer, r io.Reader, path string) ([]SessionChange, error) {
	w, err := newTxWriter(tx, copy)
	if err != nil {
		return nil, err
	}
	defer w.close()
	seen := map[string]bool{}
	var out []SessionChange
	err = ingest.ImportEach(im, r, path, func(ss *session.Session) error {
		if seen[ss.ID] {
			return fmt.Errorf("two sessions in the file share the id %q", ss.ID)
		}
		seen[ss.ID] = true
		c, err := writeSession(w, srcID, act, ss)
		if err != nil {
			return fmt.Errorf("session %q: %w", ss.ID, err)
		}
		c.Diagnostics = ss.Diagnostics
		out = append(out, c)
		return nil
	})
	if err != nil {
		return nil, err
	}
	if act == ActionReplaced {
		if err := dropMissing(tx, srcID, seen); err != nil {
			return nil, err
		}
	}
	if act != ActionImported {
		if err := gcBlobs(tx); err != nil {
			return nil, err
		}
	}
	return out, nil
}
