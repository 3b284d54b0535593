package claude

import (
	"encoding/json"
	"errors"
	"io/fs"
	"strings"

	"ctxscope/engine/ingest/internal/norm"
	"ctxscope/engine/inputfile"
	"ctxscope/engine/session"
)

// maxMeta bounds a subagent's .meta.json, a record of a few fields.
const maxMeta = 64 << 10

// SubagentMeta is what Claude Code 2 writes beside a subagent transcript
// agent-<id>.jsonl, in agent-<id>.meta.json: the kind of agent spawned
// and, in some versions, the task it was given.
type SubagentMeta struct {
	AgentType   string `json:"agentType"`
	Description string `json:"description"`
}

// MetaPath returns the path of the .meta.json that belongs to the subagent
// transcript path, or "" when path is not a subagent transcript.
func MetaPath(path string) string {
	base := path[strings.LastIndexAny(path, `/\`)+1:]
	if !strings.HasPrefix(base, "agent-") || !strings.HasSuffix(base, ".jsonl") {
		return ""
	}
	return strings.TrimSuffix(path, ".jsonl") + ".meta.json"
}

// ReadSubagentMeta reads the .meta.json beside the subagent transcript
// path. It returns ok false, without an error, when there is none.
func ReadSubagentMeta(path string) (meta SubagentMeta, ok bool, err error) {
	mp := MetaPath(path)
	if mp == "" {
		return meta, false, nil
	}
	data, err := inputfile.ReadAll(mp, maxMeta)
	if errors.Is(err, fs.ErrNotExist) {
		return meta, false, nil
	}
	if err != nil {
		return meta, false, err
	}
	if err := json.Unmarshal(data, &meta); err != nil {
		return meta, false, errors.New(mp + ": " + norm.JSONError(err))
	}
	return meta, true, nil
}

// Apply titles the subagent thread of s after the metadata: its agent
// type, and its task when the metadata has one. A thread that is not a
// subagent thread keeps its title.
func (m SubagentMeta) Apply(s *session.Session) {
	t := s.Main()
	if t == nil || t.Kind != session.ThreadSubagent {
		return
	}
	title := m.AgentType
	if m.Description != "" {
		if title != "" {
			title += ": "
		}
		title += m.Description
	}
	if title != "" {
		t.Title = norm.Short(title, 80)
	}
}
