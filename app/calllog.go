package app

import (
	"encoding/json"
	"time"
)

// callRecord is one line of the call log.
type callRecord struct {
	Time   time.Time `json:"time"`
	Method string    `json:"method"`
	Args   []any     `json:"args"`
}

// called records a call of a bound method with its arguments in the call
// log, when Options.CallLog set one. Every bound method calls it first, so
// that a test can see exactly what reached Go from the frontend (the
// desktop window's bindings offer no hook of their own). It also tells the
// background indexer that the user is at work (see quietBeforeIndexing).
func (a *App) called(method string, args ...any) {
	a.index.busy()
	if a.callLog == nil {
		return
	}
	if args == nil {
		args = []any{}
	}
	line, err := json.Marshal(callRecord{Time: time.Now().UTC(), Method: method, Args: args})
	if err != nil {
		return
	}
	a.callMu.Lock()
	defer a.callMu.Unlock()
	a.callLog.Write(append(line, '\n'))
}
