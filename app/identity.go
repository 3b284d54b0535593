package app

import "context"

type userKey struct{}

// WithUser returns ctx for a call made by a user signed in to a shared
// server with their token (see store.CreateUserToken): the annotation
// queue makes their marks under that name, whatever name the page sends.
func WithUser(ctx context.Context, name string) context.Context {
	return context.WithValue(ctx, userKey{}, name)
}

// userOf returns the signed-in user of a call, "" for none (the desktop
// window, a loopback server's own page).
func userOf(ctx context.Context) string {
	name, _ := ctx.Value(userKey{}).(string)
	return name
}

// UserOfToken returns the user whose token token is, and false when it is
// no user's: never made, or revoked (on any server sharing the
// workspace).
func (a *App) UserOfToken(ctx context.Context, token string) (string, bool, error) {
	return a.ws.Store.UserOfToken(ctx, token)
}

// HasUsers reports whether the workspace has users with tokens, without
// which serve does not listen beyond loopback.
func (a *App) HasUsers(ctx context.Context) (bool, error) {
	list, err := a.ws.Store.UserTokens(ctx)
	return len(list) > 0, err
}
