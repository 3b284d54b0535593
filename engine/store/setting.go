package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"
)

// PutSetting stores v, encoded as JSON, under key.
func (s *Store) PutSetting(ctx context.Context, key string, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("setting %q: %w", key, err)
	}
	return s.inTx(ctx, func(tx *sql.Tx) error {
		_, err := tx.Exec(`INSERT INTO settings (key, value, updated_at) VALUES (?,?,?)
			ON CONFLICT (key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at`, key, string(b), timeText(time.Now()))
		return err
	})
}

// Setting decodes the setting stored under key into v. It reports false,
// leaving v alone, when the setting is not stored.
func (s *Store) Setting(ctx context.Context, key string, v any) (bool, error) {
	var raw string
	err := s.read.QueryRowContext(ctx, `SELECT value FROM settings WHERE key = ?`, key).Scan(&raw)
	if errors.Is(err, sql.ErrNoRows) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("setting %q: %w", key, err)
	}
	if err := json.Unmarshal([]byte(raw), v); err != nil {
		return false, fmt.Errorf("setting %q: %w", key, err)
	}
	return true, nil
}

// UpdateSetting reads the setting under key into v (left alone when it is
// not stored), calls edit, which changes v, and stores v: all in one write
// transaction, so that two processes editing the same setting (two
// servers adding to one annotation queue) do not lose either's edit. When
// kind is not "", the change goes into the change feed as kind.
func (s *Store) UpdateSetting(ctx context.Context, key string, v any, kind ChangeKind, edit func() error) error {
	return s.inTx(ctx, func(tx *sql.Tx) error {
		var raw string
		err := tx.QueryRow(`SELECT value FROM settings WHERE key = ?`, key).Scan(&raw)
		if err != nil && !errors.Is(err, sql.ErrNoRows) {
			return fmt.Errorf("setting %q: %w", key, err)
		}
		if err == nil {
			if err := json.Unmarshal([]byte(raw), v); err != nil {
				return fmt.Errorf("setting %q: %w", key, err)
			}
		}
		if err := edit(); err != nil {
			return err
		}
		b, err := json.Marshal(v)
		if err != nil {
			return fmt.Errorf("setting %q: %w", key, err)
		}
		if _, err := tx.Exec(`INSERT INTO settings (key, value, updated_at) VALUES (?,?,?)
			ON CONFLICT (key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at`, key, string(b), timeText(time.Now())); err != nil {
			return err
		}
		if kind != "" {
			return recordChange(tx, kind)
		}
		return nil
	})
}
