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

	"github.com/mtibben/confusables"
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

// schemaUserRoles gives each token a role. Tokens made before roles
// existed are members': an operator is made explicitly.
const schemaUserRoles = `
ALTER TABLE user_tokens ADD COLUMN role TEXT NOT NULL DEFAULT 'member';
`

// tokenPrefix starts every user token, so that one found in a log or a
// paste is recognisable.
const tokenPrefix = "ctxs_"

// UserToken describes a user's token; the token itself is shown once, by
// [Store.CreateUserToken], and never stored.
type UserToken struct {
	Name    string    `json:"name"`
	Role    Role      `json:"role"`
	Created time.Time `json:"created"`
}

// Role is what a user's token lets them do on a shared server.
type Role string

// The roles a token can carry. A token made before roles existed is a
// member's.
const (
	// RoleMember reads, searches, replays, annotates as themselves and
	// builds memory offline.
	RoleMember Role = "member"
	// RoleOperator also runs the server: its settings, its disk, its LLM
	// endpoint, and the data other members share.
	RoleOperator Role = "operator"
)

// ParseRole returns the role named s.
func ParseRole(s string) (Role, error) {
	switch r := Role(s); r {
	case RoleMember, RoleOperator:
		return r, nil
	}
	return "", fmt.Errorf("unknown role %q: member or operator", s)
}

// ErrUserExists is returned by [Store.CreateUserToken] for a name that
// has a token already, or that looks like one that has.
var ErrUserExists = errors.New("the user has a token already; revoke it first")

// CreateUserToken makes a new token for the user name with role and
// returns it. Only its hash is stored. The name is normalised first
// ([NormalizeUserName]); a name that then equals, or looks like, one that
// has a token is refused.
func (s *Store) CreateUserToken(ctx context.Context, name string, role Role) (string, error) {
	name, err := NormalizeUserName(name)
	if err != nil {
		return "", err
	}
	if _, err := ParseRole(string(role)); err != nil {
		return "", err
	}
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		return "", err
	}
	token := tokenPrefix + base64.RawURLEncoding.EncodeToString(b)
	err = s.inTx(ctx, func(tx *sql.Tx) error {
		if err := refuseLookAlike(tx, name); err != nil {
			return err
		}
		r, err := tx.Exec(`INSERT INTO user_tokens (name, hash, created_at, role) VALUES (?,?,?,?) ON CONFLICT DO NOTHING`,
			name, tokenHash(token), timeText(time.Now()), string(role))
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

// refuseLookAlike refuses name when a user with a token has a name that
// differs from it but looks the same (the same Unicode skeleton, as
// "ann" in Latin and "аnn" with a Cyrillic a).
func refuseLookAlike(tx *sql.Tx, name string) error {
	rows, err := tx.Query(`SELECT name FROM user_tokens`)
	if err != nil {
		return err
	}
	defer rows.Close()
	skeleton := confusables.Skeleton(name)
	for rows.Next() {
		var other string
		if err := rows.Scan(&other); err != nil {
			return err
		}
		if other != name && confusables.Skeleton(other) == skeleton {
			return fmt.Errorf("user %q looks like the existing user %q: %w", name, other, ErrUserExists)
		}
	}
	return rows.Err()
}

// RevokeUserToken deletes the user's token: it stops working at once, on
// every server that shares the workspace.
func (s *Store) RevokeUserToken(ctx context.Context, name string) error {
	if n, err := NormalizeUserName(name); err == nil {
		name = n
	}
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
	rows, err := s.read.QueryContext(ctx, `SELECT name, role, created_at FROM user_tokens ORDER BY name`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []UserToken
	for rows.Next() {
		var t UserToken
		var created string
		if err := rows.Scan(&t.Name, &t.Role, &created); err != nil {
			return nil, err
		}
		t.Created = parseTime(created)
		out = append(out, t)
	}
	return out, rows.Err()
}

// UserOfToken returns the user whose token token is, and false when it is
// no user's (never made, or revoked).
func (s *Store) UserOfToken(ctx context.Context, token string) (UserToken, bool, error) {
	if !strings.HasPrefix(token, tokenPrefix) {
		return UserToken{}, false, nil
	}
	var t UserToken
	var created string
	err := s.read.QueryRowContext(ctx, `SELECT name, role, created_at FROM user_tokens WHERE hash = ?`, tokenHash(token)).Scan(&t.Name, &t.Role, &created)
	if errors.Is(err, sql.ErrNoRows) {
		return UserToken{}, false, nil
	}
	if err != nil {
		return UserToken{}, false, err
	}
	t.Created = parseTime(created)
	return t, true, nil
}

func tokenHash(token string) string {
	h := sha256.Sum256([]byte(token))
	return hex.EncodeToString(h[:])
}
