package cli

import (
	"io"
	"os"

	"ctxscope/app"
)

// CallLogEnv names the environment variable that turns on the call log:
// the file every call of a bound method is appended to, as JSON lines
// (see app.Options.CallLog). Tests use it to check that no session content
// reaches Go from the frontend.
const CallLogEnv = "CTXSCOPE_CALL_LOG"

// OpenCallLog opens the call log that CTXSCOPE_CALL_LOG names, or returns
// nil, nil when it is not set.
func OpenCallLog() (io.WriteCloser, error) {
	path := os.Getenv(CallLogEnv)
	if path == "" {
		return nil, nil
	}
	return os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
}

// NewApp builds the app services both interactive faces share (the desktop
// window and serve mode) on env's workspace, with initial (if not empty) as
// the first session shown and log receiving progress lines. The call log
// is opened when CTXSCOPE_CALL_LOG asks for it. The returned release closes
// the call log; call it once the app is closed.
func NewApp(env *Env, initial string, log io.Writer) (a *app.App, release func(), err error) {
	opts := app.Options{Workspace: env.Workspace, Store: env.Store, Initial: initial, Log: log, NoGuide: env.NoGuide}
	calls, err := OpenCallLog()
	if err != nil {
		return nil, nil, err
	}
	release = func() {}
	if calls != nil {
		opts.CallLog = calls
		release = func() { calls.Close() }
	}
	a, err = app.New(opts)
	if err != nil {
		release()
		return nil, nil, err
	}
	return a, release, nil
}
