package app

import (
	"context"
	"fmt"
	"os"
	"os/user"

	"ctxscope/engine/store"
)

// Role is what a signed-in caller of a served app may do (see
// accessTable).
type Role = store.Role

// The roles: members read, search, replay, annotate as themselves and
// build memory offline; operators also run the server (its settings, its
// disk, its LLM endpoint, others' data).
const (
	RoleMember   = store.RoleMember
	RoleOperator = store.RoleOperator
)

// Principal is who makes a call in serve mode: a user signed in with
// their token, or the holder of the server's per-launch token.
type Principal struct {
	// Name is the annotator the caller's marks are made under: the token's
	// user, or for the launch token the server's one annotator.
	Name string
	Role Role
	// Launch is true for the per-launch token: the server's operator,
	// annotating under the name the server was started with.
	Launch bool
}

type principalKey struct{}

// WithPrincipal returns ctx for a call made by p. [App.Invoke] allows the
// call by p's role, and the annotation queue makes marks under p.Name,
// whatever name the page sends.
func WithPrincipal(ctx context.Context, p Principal) context.Context {
	return context.WithValue(ctx, principalKey{}, p)
}

// principalOf returns the principal of a call, and false for a call that
// has none (the desktop window, which is its user's own).
func principalOf(ctx context.Context) (Principal, bool) {
	p, ok := ctx.Value(principalKey{}).(Principal)
	return p, ok
}

// userOf returns the name a call's marks are made under when the call has
// a principal, "" for none (the desktop window).
func userOf(ctx context.Context) string {
	p, _ := principalOf(ctx)
	return p.Name
}

// UserOfToken returns the user whose token token is with their role, and
// false when it is no user's: never made, or revoked (on any server
// sharing the workspace).
func (a *App) UserOfToken(ctx context.Context, token string) (Principal, bool, error) {
	u, ok, err := a.ws.Store.UserOfToken(ctx, token)
	if err != nil || !ok {
		return Principal{}, false, err
	}
	return Principal{Name: u.Name, Role: u.Role}, true, nil
}

// LaunchPrincipal is the principal of the per-launch token of a server
// started by its operator: the operator's role, under the annotator name
// given (serve --annotator), else the one this workspace's desktop user
// set, else the name of the account the server runs as. The name can not
// be changed through the page.
func (a *App) LaunchPrincipal(annotator string) (Principal, error) {
	if annotator == "" {
		if _, err := a.local.get(annotatorSetting, &annotator); err != nil {
			return Principal{}, err
		}
	}
	if annotator == "" {
		annotator = accountName()
	}
	name, err := store.NormalizeUserName(annotator)
	if err != nil {
		return Principal{}, fmt.Errorf("the server's annotator: %w", err)
	}
	return Principal{Name: name, Role: RoleOperator, Launch: true}, nil
}

// HasUsers reports whether the workspace has users with tokens, without
// which serve does not listen beyond loopback.
func (a *App) HasUsers(ctx context.Context) (bool, error) {
	list, err := a.ws.Store.UserTokens(ctx)
	return len(list) > 0, err
}

// accountName is the name of the account this process runs as, "operator"
// when the system does not say.
func accountName() string {
	if u, err := user.Current(); err == nil && u.Username != "" {
		return u.Username
	}
	if n := os.Getenv("USER"); n != "" {
		return n
	}
	return "operator"
}
