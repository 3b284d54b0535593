package opencode

import (
	"encoding/json"

	"ctxscope/engine/ingest/internal/norm"
	"ctxscope/engine/session"
)

// export is what `opencode export SESSION` writes: the session's record
// and each message's record with its parts, in one JSON document.
type export struct {
	Info     sessionInfo `json:"info"`
	Messages []struct {
		Info  messageInfo `json:"info"`
		Parts []partInfo  `json:"parts"`
	} `json:"messages"`
}

// readExport reads the document `opencode export` writes.
func readExport(data []byte, path string) *session.Session {
	var ex export
	if err := json.Unmarshal(data, &ex); err != nil {
		s := convert(sessionInfo{ID: norm.BaseID(path)}, nil, path)
		norm.Diag(s, path, 1, session.SeverityError, "opencode export: %s; nothing read", norm.JSONError(err))
		return s
	}
	msgs := make([]message, len(ex.Messages))
	for i, m := range ex.Messages {
		msgs[i] = message{info: m.Info, parts: m.Parts, line: i + 1}
	}
	return convert(ex.Info, msgs, path)
}
