package store

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"database/sql"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode"
)

// schemaUserTokens holds the tokens a team's members sign in to a shared
// ctxscope server with: each user's name and the SHA-256 of their token,
// never the token itself. The tokens are 256 random bits, so a fast hash
// is as safe as a slow one: there is nothing to guess.
const schemaUserTokens = `
CREATE TABLE user_tokens (
	name TEXT PRIMARY KEY,
	hash TEXT NOT NULL UNIQUE,
	created_at TEXT NOT NULL
);
`

// tokenPrefix starts every user token, so that one found in a log or a
// paste is recognisable.
const tokenPrefix = "ctxs_"

// UserToken describes a user's token; the token itself is shown once, by
// [Store.CreateUserToken], and never stored.
type UserToken struct {
	Name    string    `json:"name"`
	Created time.Time `json:"created"`
}

// ErrUserExists is returned by [Store.CreateUserToken] for a name that
// has a token already.
var ErrUserExists = errors.New("the user has a token already; revoke it first")

// CreateUserToken makes a new token for the user name (1 to 64 letters,
// digits and . _ - @) and returns it. Only its hash is stored.
func (s *Store) CreateUserToken(ctx context.Context, name string) (string, error) {
	if err := checkUserName(name); err != nil {
		return "", err
	}
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		return "", err
	}
	token := tokenPrefix + base64.RawURLEncoding.EncodeToString(b)
	err := s.inTx(ctx, func(tx *sql.Tx) error {
		r, err := tx.Exec(`INSERT INTO user_tokens (name, hash, created_at) VALUES (?,?,?) ON CONFLICT DO NOTHING`,
			name, tokenHash(token), timeText(time.Now()))
		if err != nil {
			return err
		}
		if n, _ := r.RowsAffected(); n == 0 {
			return fmt.Errorf("user %q: %w", name, ErrUserExists)
		}
		return nil
	})
	if err != nil {
		return "", err
	}
	return token, nil
}

// RevokeUserToken deletes the user's token: it stops working at once, on
// every server that shares the workspace.
func (s *Store) RevokeUserToken(ctx context.Context, name string) error {
	return s.inTx(ctx, func(tx *sql.Tx) error {
		r, err := tx.Exec(`DELETE FROM user_tokens WHERE name = ?`, name)
		if err != nil {
			return err
		}
		if n, _ := r.RowsAffected(); n == 0 {
			return fmt.Errorf("user %q: %w", name, ErrNotFound)
		}
		return nil
	})
}

// UserTokens lists the users with a token, by name.
func (s *Store) UserTokens(ctx context.Context) ([]UserToken, error) {
	rows, err := s.read.QueryContext(ctx, `SELECT name, created_at FROM user_tokens ORDER BY name`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []UserToken
	for rows.Next() {
		var t UserToken
		var created string
		if err := rows.Scan(&t.Name, &created); err != nil {
			return nil, err
		}
		t.Created = parseTime(created)
		out = append(out, t)
	}
	return out, rows.Err()
}

// UserOfToken returns the user whose token token is, and false when it is
// no user's (never made, or revoked).
func (s *Store) UserOfToken(ctx context.Context, token string) (string, bool, error) {
	if !strings.HasPrefix(token, tokenPrefix) {
		return "", false, nil
	}
	var name string
	err := s.read.QueryRowContext(ctx, `SELECT name FROM user_tokens WHERE hash = ?`, tokenHash(token)).Scan(&name)
	if errors.Is(err, sql.ErrNoRows) {
		return "", false, nil
	}
	if err != nil {
		return "", false, err
	}
	return name, true, nil
}

func tokenHash(token string) string {
	h := sha256.Sum256([]byte(token))
	return hex.EncodeToString(h[:])
}

func checkUserName(name string) error {
	ok := len(name) >= 1 && len(name) <= 64
	for _, r := range name {
		ok = ok && (unicode.IsLetter(r) || unicode.IsDigit(r) || strings.ContainsRune("._-@", r))
	}
	if !ok {
		return fmt.Errorf("user name %q: 1 to 64 letters, digits and . _ - @", name)
	}
	return nil
}
