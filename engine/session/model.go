package session

import (
	"encoding/json"
	"time"
)

// Format names a session file format that ctxscope can import.
type Format string

// The formats ctxscope knows. Importers for each live under engine/ingest.
const (
	FormatPi         Format = "pi"
	FormatClaudeCode Format = "claude-code"
	FormatCodex      Format = "codex"
	FormatOpenAIChat Format = "openai-chat"
	FormatSWEAgent   Format = "swe-agent"
	FormatMiniSWE    Format = "mini-swe-agent"
	FormatGemini     Format = "gemini-cli"
	FormatOpenCode   Format = "opencode"
	FormatCopilot    Format = "copilot-cli"
	FormatOpenHands  Format = "openhands"
	FormatInspect    Format = "inspect"
	// FormatOTLP is OpenTelemetry traces and logs of an agent's model and
	// tool calls (the GenAI semantic conventions), as OTLP/JSON lines.
	FormatOTLP Format = "otlp"
	// FormatProxy is what ctxscope's recording proxy wrote: each model
	// request and response as they crossed the wire, one file per
	// conversation.
	FormatProxy Format = "ctxscope-proxy"
	// FormatNormalized is ctxscope's own export: normalized JSON Lines
	// (docs/normalized-jsonl.md). A session read back from it keeps the
	// format it was first imported from.
	FormatNormalized Format = "ctxscope-jsonl"
)

// Session is one imported agent session: its threads and what the importer
// had to say about the source.
type Session struct {
	ID      string `json:"id"`      // the source's session id, or one derived from the file
	Format  Format `json:"format"`  // the format the session was read from
	Version int    `json:"version"` // the format's own version number, 0 when it has none
	Agent   string `json:"agent"`   // the agent that wrote it, with its version when known
	Source  string `json:"source"`  // the file (or files) it was read from
	// Size is how many bytes of the source hold this session when the
	// source holds several (an Inspect log's sample); 0 when the session
	// is the whole source.
	Size int64 `json:"size,omitempty"`
	// Recorded holds the totals the agent recorded for the session, when
	// it records any.
	Recorded *Recorded `json:"recorded,omitempty"`
	Title    string    `json:"title"`   // a short human title, when the source has one
	CWD      string    `json:"cwd"`     // the agent's working directory, when recorded
	Started  time.Time `json:"started"` // the session's start time, zero when unknown

	Threads     []*Thread    `json:"threads"`     // the main thread first
	Diagnostics []Diagnostic `json:"diagnostics"` // problems found while importing
}

// Main returns the session's main thread, or nil for an empty session.
func (s *Session) Main() *Thread {
	if len(s.Threads) == 0 {
		return nil
	}
	return s.Threads[0]
}

// ThreadKind tells what role a thread plays in its session.
type ThreadKind string

// Thread kinds.
const (
	ThreadMain     ThreadKind = "main"     // the conversation the user had with the agent
	ThreadSubagent ThreadKind = "subagent" // a delegated conversation (Claude Code Task, Codex subagent)
)

// Thread is one conversation of a session: its entries in source order.
type Thread struct {
	ID       string     `json:"id"`
	Kind     ThreadKind `json:"kind"`
	ParentID string     `json:"parentId,omitempty"` // the thread that spawned this one
	Title    string     `json:"title,omitempty"`
	Entries  []*Entry   `json:"entries"`
	// LeafID is the id of the entry the source marks as current (the end of
	// the active branch). Empty means the last entry in source order.
	LeafID string `json:"leafId,omitempty"`
}

// EntryKind is the type of a session entry.
type EntryKind string

// Entry kinds. Kinds other than EntryMessage and EntryCompaction describe the
// source agent's bookkeeping; they are kept so nothing the file said is lost.
const (
	EntryMessage       EntryKind = "message"        // a message that reached (or came from) the model
	EntryCompaction    EntryKind = "compaction"     // the source agent summarised and dropped earlier context
	EntryModelChange   EntryKind = "model_change"   // the agent switched model
	EntryThinkingLevel EntryKind = "thinking_level" // the agent changed its reasoning effort
	EntryLabel         EntryKind = "label"          // a user bookmark on another entry
	EntrySessionInfo   EntryKind = "session_info"   // session metadata such as a name
	EntryMeta          EntryKind = "meta"           // any other record, kept as raw metadata
)

// Entry is one record of a thread.
type Entry struct {
	ID       string    `json:"id"`
	ParentID string    `json:"parentId,omitempty"` // empty for a root
	Line     int       `json:"line"`               // 1-based line (or record number) in the source
	Time     time.Time `json:"time"`
	Kind     EntryKind `json:"kind"`
	// Type is the source's own record type, such as "custom_message" or
	// "file-history-snapshot".
	Type string `json:"type,omitempty"`

	Message    *Message    `json:"message,omitempty"`    // for EntryMessage
	Compaction *Compaction `json:"compaction,omitempty"` // for EntryCompaction

	// Value holds the payload of bookkeeping entries: the model id of a
	// model change, the level of a thinking-level change, the text of a label
	// or a session name. On the response to a request that crossed the
	// recording proxy under live eviction, it says what the proxy did to
	// the request ([LiveNote]).
	Value string `json:"value,omitempty"`
	// Target is the entry a label points at.
	Target string `json:"target,omitempty"`
	// Raw keeps the record of an EntryMeta entry as the source wrote it.
	Raw json.RawMessage `json:"raw,omitempty"`
}

// Compaction records that the source agent replaced earlier context with a
// summary.
type Compaction struct {
	Summary string `json:"summary"`
	// FirstKeptID is the entry from which the agent kept context verbatim.
	// Empty means the summary replaced everything before the compaction.
	FirstKeptID string `json:"firstKeptId,omitempty"`
	// TokensBefore is the context size the agent reported before compacting.
	TokensBefore int `json:"tokensBefore,omitempty"`
}
