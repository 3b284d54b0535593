package cli

import (
	"io"
	"os"
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
