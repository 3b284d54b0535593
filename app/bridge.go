package app

import (
	"context"
	"encoding/json"
)

// Bridge is the one thing the desktop window binds: every call of the
// page goes through Call, to the same bound methods, decoded and
// dispatched the same way, as serve mode's POST /api/call. The window is
// its user's own, so a call carries no principal and is not checked
// against a role.
type Bridge struct {
	app *App
}

// Bridge returns the desktop window's binding.
func (a *App) Bridge() *Bridge { return &Bridge{app: a} }

// Call calls the bound method service.method with its JSON arguments and
// returns its result. Calls of one method supersede each other as a
// page's do in serve mode (the window is one caller).
func (b *Bridge) Call(service, method string, args []json.RawMessage) (any, error) {
	return b.app.call(context.Background(), service, method, args)
}
