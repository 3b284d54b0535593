package report

import (
	"ctxscope/engine/session"
	"ctxscope/engine/tokens"
)

// The sources of a request's input, as a report names them.
const (
	// SourceRequestRecord: the log records the request as it was sent
	// (Claude Code 2.1.33x's request records: system prompt, tool
	// schemas and messages).
	SourceRequestRecord = "request-record"
	// SourceTranscript: the log's messages, with nothing estimated.
	SourceTranscript = "transcript"
	// SourceEstimated: the log's messages, and the remainder the
	// provider counted beyond them, estimated from its usage
	// (RequestTokens.Remainder).
	SourceEstimated = "transcript+estimated-remainder"
)

// inputLacks names what the log of s does not hold of a request, as the
// real agents' tests measured it (docs/importers.md), "" when it holds
// the request or when that is not known.
func inputLacks(s *session.Session, fromRecords bool) string {
	switch s.Format {
	case session.FormatClaudeCode:
		if fromRecords {
			return "" // all but a billing header block of about 20 tokens
		}
		return "the system prompt and the tool schemas"
	case session.FormatCodex, session.FormatCopilot:
		return "the tool schemas"
	case session.FormatGemini:
		return "the system instruction and the tool schemas"
	case session.FormatOpenCode:
		return "the system prompt and the tool schemas"
	}
	return ""
}

// fromRequestRecords reports whether thread t holds its requests as sent.
func fromRequestRecords(t *session.Thread) bool {
	for _, e := range t.Entries {
		if e.Message != nil && e.Message.Role == session.RoleSystem && e.Message.Origin == session.OriginRequestShape {
			return true
		}
	}
	return false
}

// InputSource says of thread t of s whether it holds its requests as sent
// (request records), and names what the log lacks of a request ("" when
// nothing or not known).
func InputSource(s *session.Session, t *session.Thread) (fromRecords bool, lacks string) {
	fromRecords = t != nil && fromRequestRecords(t)
	return fromRecords, inputLacks(s, fromRecords)
}

// setSources says, for each request of the main thread, where its input's
// figures come from, and the remainder estimated from usage for a request
// whose log lacks part of it.
func (r *Report) setSources(s *session.Session, predictions []tokens.Prediction) {
	records, lacks := InputSource(s, s.Main())
	r.InputLacks = lacks
	for k := range r.RequestTokens {
		rt := &r.RequestTokens[k]
		switch {
		case records:
			rt.Source = SourceRequestRecord
		case k < len(predictions) && predictions[k].Basis > 0 && predictions[k].Overhead >= 1:
			rt.Source, rt.Remainder = SourceEstimated, int(predictions[k].Overhead+0.5)
		default:
			rt.Source = SourceTranscript
		}
	}
}
