package claude

import (
	"ctxscope/engine/ingest/internal/norm"
	"ctxscope/engine/session"
)

// fill sets the kind-specific fields of a tree entry. A record whose
// message cannot be read is kept as metadata, so that its children still
// find their parent.
func (d *decoder) fill(e *session.Entry, rec *record, line []byte, n int) {
	switch {
	case rec.Type == "system" && rec.Subtype == "compact_boundary":
		e.Kind = session.EntryCompaction
		e.Compaction = &session.Compaction{}
		if rec.HasCompactMeta {
			e.Compaction.TokensBefore, e.Value = rec.CompactPreTokens, rec.CompactTrigger
		}
		return
	case (rec.Type == "user" || rec.Type == "assistant") && rec.Message != nil:
		m, warns, err := d.message(rec)
		for _, w := range warns {
			norm.Diag(d.s, d.file, n, session.SeverityWarning, "%s", w)
		}
		if err == nil {
			e.Kind, e.Message = session.EntryMessage, m
			return
		}
		norm.Diag(d.s, d.file, n, session.SeverityError, "%s message: %v; kept as metadata", rec.Type, err)
	case rec.Type == "user" || rec.Type == "assistant":
		norm.Diag(d.s, d.file, n, session.SeverityError, "%s record without a message; kept as metadata", rec.Type)
	}
	e.Kind, e.Value, e.Raw = session.EntryMeta, rec.Subtype, copyRaw(line)
}

// message converts a user or assistant record's message.
func (d *decoder) message(rec *record) (*session.Message, []string, error) {
	blocks, warns, err := decodeContent(rec.Message.Content)
	if err != nil {
		return nil, nil, err
	}
	m := &session.Message{Blocks: blocks, Time: norm.Time(rec.Timestamp)}
	if rec.Type == "assistant" {
		am := rec.Message
		m.Role, m.ID, m.Provider, m.Model, m.StopReason = session.RoleAssistant, am.ID, "anthropic", am.Model, am.StopReason
		if u := am.Usage; u != nil {
			m.Usage = &session.Usage{Input: u.Input, Output: u.Output, CacheRead: u.CacheRead, CacheWrite: u.CacheWrite}
		}
		return m, warns, nil
	}
	m.Role = session.RoleUser
	for _, b := range blocks {
		if b.Type == session.BlockToolResult {
			m.Role = session.RoleTool
			break
		}
	}
	if rec.IsCompactSummary {
		m.Origin = session.OriginCompactionSummary
	}
	return m, warns, nil
}

// merge adds a further line of a split response to its entry: its blocks,
// and the line's usage in place of the earlier one. Claude Code writes one
// line per content block of a response; the lines before the last carry
// placeholder usage (the input copied from elsewhere, no output), and only
// the final line the provider's figures, so a response's usage is its last
// line's, counted once. It returns false when the line cannot be read, and
// the caller keeps it as an entry of its own.
func (d *decoder) merge(e *session.Entry, rec *record, n int) bool {
	if e.Message == nil {
		return false
	}
	blocks, warns, err := decodeContent(rec.Message.Content)
	if err != nil {
		return false
	}
	for _, w := range warns {
		norm.Diag(d.s, d.file, n, session.SeverityWarning, "%s", w)
	}
	m := e.Message
	m.Blocks = append(m.Blocks, blocks...)
	if rec.Message.StopReason != "" {
		m.StopReason = rec.Message.StopReason
	}
	if u := rec.Message.Usage; u != nil {
		m.Usage = &session.Usage{Input: u.Input, Output: u.Output, CacheRead: u.CacheRead, CacheWrite: u.CacheWrite}
	}
	return true
}
