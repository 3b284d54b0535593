package app

import "errors"

// Errors the services return. The frontend shows their messages as they
// are.
var (
	// ErrNoDialog is returned where the host has no file dialogs (serve
	// mode): the user enters a path or uploads the file instead.
	ErrNoDialog = errors.New("file dialogs are only available in the desktop window: enter a path or upload the file")
	// ErrNotFound is returned for an unknown session id.
	ErrNotFound = errors.New("no such session is open")
)
