package store

import (
	"context"
	"errors"
	"strings"
	"testing"
)

// TestUserTokens creates, checks, lists and revokes tokens, and checks
// that only their hashes are stored.
func TestUserTokens(t *testing.T) {
	s := openTemp(t)
	ctx := context.Background()
	ann, err := s.CreateUserToken(ctx, "ann")
	if err != nil {
		t.Fatal(err)
	}
	bob, err := s.CreateUserToken(ctx, "bob@example.org")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(ann, tokenPrefix) || len(ann) < 40 || ann == bob {
		t.Fatalf("tokens %q %q", ann, bob)
	}
	if _, err := s.CreateUserToken(ctx, "ann"); !errors.Is(err, ErrUserExists) {
		t.Errorf("a second token for ann: %v", err)
	}
	for _, bad := range []string{"", "a b", "<script>", strings.Repeat("x", 65)} {
		if _, err := s.CreateUserToken(ctx, bad); err == nil {
			t.Errorf("user name %q accepted", bad)
		}
	}
	for _, tc := range []struct {
		token, user string
		ok          bool
	}{
		{ann, "ann", true},
		{bob, "bob@example.org", true},
		{ann + "x", "", false},
		{"", "", false},
		{tokenHash(ann), "", false}, // the stored hash is not a token
	} {
		user, ok, err := s.UserOfToken(ctx, tc.token)
		if err != nil || user != tc.user || ok != tc.ok {
			t.Errorf("UserOfToken(%.12q…) = %q, %v, %v; want %q, %v", tc.token, user, ok, err, tc.user, tc.ok)
		}
	}
	var stored int
	if err := s.read.QueryRow(`SELECT count(*) FROM user_tokens WHERE hash = ? OR hash = ?`, ann, bob).Scan(&stored); err != nil || stored != 0 {
		t.Errorf("a token is stored as it is (%d rows, %v)", stored, err)
	}
	list, err := s.UserTokens(ctx)
	if err != nil || len(list) != 2 || list[0].Name != "ann" || list[0].Created.IsZero() {
		t.Fatalf("tokens listed: %+v %v", list, err)
	}
	if err := s.RevokeUserToken(ctx, "ann"); err != nil {
		t.Fatal(err)
	}
	if _, ok, _ := s.UserOfToken(ctx, ann); ok {
		t.Error("a revoked token still works")
	}
	if err := s.RevokeUserToken(ctx, "ann"); !errors.Is(err, ErrNotFound) {
		t.Errorf("revoking twice: %v", err)
	}
}
