package modeltest

import (
	"path/filepath"
	"strings"
	"time"
)

// Script is the task the server plays: for each conversation it
// recognises (by a marker in its first user message), the steps to take,
// one per model response. A conversation it does not recognise (an
// agent's title or summary request) gets a short answer and no tool call.
type Script struct {
	// Workdir is the directory the agent works in: actions' relative paths
	// are resolved against it for tools that want absolute paths.
	Workdir string
	// Tasks are the scripted conversations, tried in order.
	Tasks []Task
	// Delay is how long the server waits before answering each request,
	// so that an agent's run lasts long enough to be watched.
	Delay time.Duration
}

// Task is one scripted conversation.
type Task struct {
	// Marker is text its first user message contains.
	Marker string
	// Steps are the model's responses in order; after the last comes
	// Final.
	Steps []Step
	// Final is the closing answer.
	Final string
}

// Step is one model response: some text and the tool calls it makes.
type Step struct {
	Say   string
	Calls []Action
}

// Action is a tool call in the script's own terms; the server maps it onto
// the tool of that kind among those the request offers.
type Action struct {
	Kind Kind
	// Path is the file of a read, edit or write, relative to Workdir.
	Path string
	// Command is the shell command of a bash action.
	Command string
	// Old and New are an edit's replaced and replacing text; Content is a
	// write's.
	Old, New, Content string
	// Prompt is what a subagent is asked; it should hold the marker of
	// the task the subagent plays. AgentType is the kind of subagent
	// asked for, where the tool takes one ("general-purpose" when empty:
	// Claude Code's and Copilot CLI's; OpenCode's is "general").
	Prompt, AgentType string
	// Query is what a recall asks for.
	Query string
}

// Kind is the kind of an action.
type Kind string

// The kinds of action a script takes.
const (
	Read     Kind = "read"
	Bash     Kind = "bash"
	Edit     Kind = "edit"
	Write    Kind = "write"
	Subagent Kind = "subagent"
	// Recall calls a recall tool of an MCP server (ctxscope mcp): the
	// offered tool whose name ends in "recall", however the agent
	// prefixes MCP tools (mcp__ctxscope__recall, ctxscope_recall...).
	Recall Kind = "recall"
)

// task returns the task whose marker the first user text holds.
func (s Script) task(firstUser string) (Task, bool) {
	for _, t := range s.Tasks {
		if t.Marker != "" && strings.Contains(firstUser, t.Marker) {
			return t, true
		}
	}
	return Task{}, false
}

// abs resolves a script path against the work directory.
func (s Script) abs(p string) string {
	if filepath.IsAbs(p) || s.Workdir == "" {
		return p
	}
	return filepath.Join(s.Workdir, p)
}

// Rounds is a task of n rounds of exploring and changing: two reads, a
// test run and an edit, each round announced, so that a replay can infer
// the episodes of an agent that declares none. Live eviction's tests run
// it.
func Rounds(n int) []Step {
	var steps []Step
	for round := range n {
		steps = append(steps,
			Step{Say: "Looking at part " + string(rune('A'+round)) + " next.", Calls: []Action{{Kind: Read, Path: "a.txt"}}},
			Step{Calls: []Action{{Kind: Read, Path: "b.txt"}}},
			Step{Calls: []Action{{Kind: Bash, Command: "make test"}}},
			Step{Say: "Fixing it.", Calls: []Action{{Kind: Edit, Path: "a.txt", Old: "x", New: "y"}}})
	}
	return steps
}
