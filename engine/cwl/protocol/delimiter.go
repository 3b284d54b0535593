package protocol

import (
	"encoding/json"
	"strings"
)

// Error texts of the delimiter tool and the file-mutation guard, verbatim
// from the reference (delimiter.ts L165-243, chunk-access.ts L4-14),
// typos included.
const (
	ErrNoActive        = "No active chunk to end."
	ErrExplDescription = `Exploration chunks must include a non-empty "description" when ended.`
	ErrActDescription  = `Only exploration chunks accept "description" on end.`
	ErrNameRequired    = `Chunk "name" is required when action is "start".`
	ErrTypeRequired    = `Chunk "type" is required when action is "start".`
	ErrActNeedsDeps    = `Action chunks must declare at least one "dependencies" entry.`
	ErrEditInExpl      = "Access denied. File edits are only allowed in action chunks. If you belive you have enough context and are read to make edits - start an action chunk"
)

// Answer is what the delimiter tool (or the edit guard) returns for one
// call: the result text, whether it is an error, and on success the chunk
// event recorded in the result's details.
type Answer struct {
	Text    string      `json:"text"`
	IsError bool        `json:"isError"`
	Event   *ChunkEvent `json:"event,omitempty"`
}

func fail(msg string) Answer { return Answer{Text: msg, IsError: true} }

// State is the chunk state the delimiter derives from a history: the chunk
// events recorded so far. The zero value is an empty history.
type State struct {
	seen   map[string]Chunk
	last   *ChunkEvent
	events int
}

// Record adds a recorded chunk event to the state, as a successful
// delimiter result in the history does.
func (s *State) Record(ev ChunkEvent) {
	if s.seen == nil {
		s.seen = map[string]Chunk{}
	}
	s.seen[ev.Chunk.Name] = ev.Chunk
	e := ev
	s.last = &e
	s.events++
}

// Active returns the active chunk: the chunk of the last event when that
// event is a start (chunk.ts L50-55).
func (s *State) Active() (Chunk, bool) {
	if s.last == nil || s.last.Action != "start" {
		return Chunk{}, false
	}
	return s.last.Chunk, true
}

// Events returns how many chunk events the state holds.
func (s *State) Events() int { return s.events }

// Execute answers one delimiter call with raw JSON arguments against the
// state, exactly as the reference tool does: AJV schema validation with
// coercion first, then the end or start checks in the reference's order.
// It does not change the state; a caller records the event of a
// successful answer once the whole assistant message has run (see
// [Batch]).
func (s *State) Execute(raw json.RawMessage) Answer {
	args, err := parseJS(raw)
	if err != nil {
		args = &jsValue{kind: jsObject, vals: map[string]*jsValue{}}
	}
	if errs := schemaErrors(args); len(errs) > 0 {
		return fail(validationText("delimiter", errs, args))
	}
	if args.get("action").str == "end" {
		return s.end(args)
	}
	return s.start(args)
}

func str(v *jsValue) string {
	if v == nil {
		return ""
	}
	return v.str
}

func (s *State) end(args *jsValue) Answer {
	act, ok := s.Active()
	if !ok {
		return fail(ErrNoActive)
	}
	desc := strings.TrimSpace(str(args.get("description")))
	ch := act
	if act.Type == KindExpl {
		if desc == "" {
			return fail(ErrExplDescription)
		}
		ch.Description = desc
	} else if desc != "" {
		return fail(ErrActDescription)
	}
	return success(ChunkEvent{Action: "end", Chunk: ch})
}

func (s *State) start(args *jsValue) Answer {
	name := strings.TrimSpace(str(args.get("name")))
	if name == "" {
		return fail(ErrNameRequired)
	}
	typ := args.get("type")
	if typ == nil {
		return fail(ErrTypeRequired)
	}
	if act, ok := s.Active(); ok {
		return fail(`Chunk "` + act.Name + `" is already active. End it before starting another chunk.`)
	}
	if _, dup := s.seen[name]; dup {
		return fail(`Chunk "` + name + `" already exists in this session.`)
	}
	if typ.str != KindAct {
		return success(ChunkEvent{Action: "start", Chunk: Chunk{Name: name, Type: KindExpl}})
	}
	depsVal := args.get("dependencies")
	if depsVal == nil || len(depsVal.arr) == 0 {
		return fail(ErrActNeedsDeps)
	}
	deps := []string{}
	for _, d := range depsVal.arr {
		t := strings.TrimSpace(d.str)
		if t != "" && !contains(deps, t) {
			deps = append(deps, t)
		}
	}
	if contains(deps, name) {
		return fail(`Chunk "` + name + `" cannot depend on itself.`)
	}
	for _, d := range deps {
		ch, ok := s.seen[d]
		if !ok {
			return fail(`Chunk dependency "` + d + `" was not found in this session.`)
		}
		if ch.Type != KindExpl {
			return fail(`Chunk dependency "` + d + `" must reference an exploration chunk.`)
		}
	}
	return success(ChunkEvent{Action: "start", Chunk: Chunk{Name: name, Type: KindAct, Dependencies: deps}})
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

func success(ev ChunkEvent) Answer {
	return Answer{Text: Line(ev), Event: &ev}
}

// Line formats a chunk event as the delimiter's result text (chunk.ts
// L67-71): "<action> [<type>] <name>", then " dep=a,b" when there are
// dependencies, then " — <description>" when there is a description.
func Line(ev ChunkEvent) string {
	s := ev.Action + " [" + ev.Chunk.Type + "] " + ev.Chunk.Name
	if len(ev.Chunk.Dependencies) > 0 {
		s += " dep=" + strings.Join(ev.Chunk.Dependencies, ",")
	}
	if ev.Chunk.Description != "" {
		s += " \u2014 " + ev.Chunk.Description
	}
	return s
}

// GuardEdit answers the file-mutation guard for an edit or write call: it
// is denied while the active chunk is an exploration chunk, and allowed
// inside an action chunk or outside any chunk. ok is false when the call
// is denied.
func (s *State) GuardEdit() (Answer, bool) {
	if act, ok := s.Active(); ok && act.Type == KindExpl {
		return fail(ErrEditInExpl), false
	}
	return Answer{}, true
}
