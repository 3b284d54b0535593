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
	ann, err := s.CreateUserToken(ctx, "ann", RoleMember)
	if err != nil {
		t.Fatal(err)
	}
	bob, err := s.CreateUserToken(ctx, "bob@example.org", RoleOperator)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(ann, tokenPrefix) || len(ann) < 40 || ann == bob {
		t.Fatalf("tokens %q %q", ann, bob)
	}
	if _, err := s.CreateUserToken(ctx, "ann", RoleMember); !errors.Is(err, ErrUserExists) {
		t.Errorf("a second token for ann: %v", err)
	}
	for _, bad := range []string{"", "a b", "<script>", strings.Repeat("x", 65)} {
		if _, err := s.CreateUserToken(ctx, bad, RoleMember); err == nil {
			t.Errorf("user name %q accepted", bad)
		}
	}
	if _, err := s.CreateUserToken(ctx, "cy", "admin"); err == nil {
		t.Error("a token with an unknown role was made")
	}
	for _, tc := range []struct {
		token, user string
		role        Role
		ok          bool
	}{
		{ann, "ann", RoleMember, true},
		{bob, "bob@example.org", RoleOperator, true},
		{ann + "x", "", "", false},
		{"", "", "", false},
		{tokenHash(ann), "", "", false}, // the stored hash is not a token
	} {
		u, ok, err := s.UserOfToken(ctx, tc.token)
		if err != nil || u.Name != tc.user || u.Role != tc.role || ok != tc.ok {
			t.Errorf("UserOfToken(%.12q…) = %+v, %v, %v; want %q (%s), %v", tc.token, u, ok, err, tc.user, tc.role, tc.ok)
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

// TestUserNamesAreNormalisedAndLookAlikesRefused checks that names that a
// reader would take for one another are one name, or refused.
func TestUserNamesAreNormalisedAndLookAlikesRefused(t *testing.T) {
	s := openTemp(t)
	ctx := context.Background()
	for _, name := range []string{"ann", "poe"} {
		if _, err := s.CreateUserToken(ctx, name, RoleMember); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct{ name, why string }{
		{"ANN", "upper case"},
		{"Ann", "title case"},
		{"ａｎｎ", "full width"},
		{" ann ", "spaces around"},
		{"\u0430nn", "a Cyrillic a among Latin letters"},
		{"\u0440\u043e\u0435", "Cyrillic letters shaped like poe"},
	} {
		if _, err := s.CreateUserToken(ctx, tc.name, RoleMember); err == nil {
			t.Errorf("%q (%s) was given a token beside ann and poe", tc.name, tc.why)
		}
	}
	for _, tc := range []struct{ in, want string }{
		{"Bob", "bob"},
		{"ＢＯＢ", "bob"},
		{"Straße", "strasse"},
		{"\u0437\u043e\u044f", "\u0437\u043e\u044f"}, // Cyrillic alone is a script like another
	} {
		got, err := NormalizeUserName(tc.in)
		if err != nil || got != tc.want {
			t.Errorf("NormalizeUserName(%q) = %q, %v; want %q", tc.in, got, err, tc.want)
		}
	}
	if err := s.RevokeUserToken(ctx, "ANN"); err != nil {
		t.Errorf("revoking ANN (ann): %v", err)
	}
}
