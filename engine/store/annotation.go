package store

import (
	"context"
	"database/sql"
	"fmt"
	"time"
)

// Annotation is a person's judgement of one retrieved item for one
// question: was it helpful, was it sufficient to answer.
type Annotation struct {
	ID         int64     `json:"id"`
	Scope      string    `json:"scope"` // what was searched: a session key or a memory set name
	Question   string    `json:"question"`
	Item       string    `json:"item"` // the judged item's id
	Annotator  string    `json:"annotator"`
	Helpful    *bool     `json:"helpful,omitempty"`    // nil when not judged
	Sufficient *bool     `json:"sufficient,omitempty"` // nil when not judged
	Notes      string    `json:"notes"`
	Time       time.Time `json:"time"`
}

// PutAnnotation stores a new annotation, stamping it with the current time
// when Time is zero, and returns its id.
func (s *Store) PutAnnotation(ctx context.Context, a Annotation) (int64, error) {
	if a.Time.IsZero() {
		a.Time = time.Now()
	}
	var id int64
	err := s.inTx(ctx, func(tx *sql.Tx) error {
		err := tx.QueryRow(`INSERT INTO annotations (scope, question, item, annotator, helpful, sufficient, notes, time) VALUES (?,?,?,?,?,?,?,?) RETURNING id`,
			a.Scope, a.Question, a.Item, a.Annotator, nullBool(a.Helpful), nullBool(a.Sufficient), a.Notes, timeText(a.Time)).Scan(&id)
		if err != nil {
			return fmt.Errorf("store annotation: %w", err)
		}
		return recordChange(tx, ChangeAnnotations)
	})
	return id, err
}

// Annotations returns the annotations of a scope in the order they were
// written; an empty scope means every annotation.
func (s *Store) Annotations(ctx context.Context, scope string) ([]Annotation, error) {
	rows, err := s.read.QueryContext(ctx, `SELECT id, scope, question, item, annotator, helpful, sufficient, notes, time
		FROM annotations WHERE ? = '' OR scope = ? ORDER BY id`, scope, scope)
	if err != nil {
		return nil, fmt.Errorf("read annotations: %w", err)
	}
	defer rows.Close()
	var out []Annotation
	for rows.Next() {
		var a Annotation
		var helpful, sufficient sql.NullBool
		var tm string
		if err := rows.Scan(&a.ID, &a.Scope, &a.Question, &a.Item, &a.Annotator, &helpful, &sufficient, &a.Notes, &tm); err != nil {
			return nil, err
		}
		a.Helpful, a.Sufficient, a.Time = boolPtr(helpful), boolPtr(sufficient), parseTime(tm)
		out = append(out, a)
	}
	return out, rows.Err()
}

// DeleteAnnotation removes one annotation.
func (s *Store) DeleteAnnotation(ctx context.Context, id int64) error {
	return s.inTx(ctx, func(tx *sql.Tx) error {
		r, err := tx.Exec(`DELETE FROM annotations WHERE id = ?`, id)
		if err != nil {
			return err
		}
		if n, _ := r.RowsAffected(); n == 0 {
			return fmt.Errorf("annotation %d: %w", id, ErrNotFound)
		}
		return recordChange(tx, ChangeAnnotations)
	})
}

func nullBool(b *bool) any {
	if b == nil {
		return nil
	}
	return *b
}

func boolPtr(b sql.NullBool) *bool {
	if !b.Valid {
		return nil
	}
	v := b.Bool
	return &v
}
