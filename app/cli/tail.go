package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"

	"ctxscope/engine/ingest"
	"ctxscope/engine/session"
	"ctxscope/engine/tail"
)

var tailCommand = command{
	name:    "tail",
	args:    "PATH... [--json] [--discover] [--once] [--count N]",
	summary: "print normalized events as session files grow",
	run:     runTail,
}

func runTail(env *Env, args []string) error {
	fs := newFlags("tail", env.Stderr)
	asJSON := fs.Bool("json", false, "print each event as one line of JSON")
	discover := fs.Bool("discover", false, "also follow where the agents write sessions under $HOME (Claude Code, Codex, pi, Gemini CLI, Copilot CLI, OpenCode's database)")
	once := fs.Bool("once", false, "print what the files hold now and exit instead of following them")
	count := fs.Int("count", 0, "exit after `N` entry events (0: run until interrupted)")
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	home, _ := os.UserHomeDir()
	if len(pos) == 0 && !*discover {
		return usageError("need a PATH, or --discover")
	}
	if *discover && len(tail.Discover(home)) == 0 {
		fmt.Fprintf(env.Stderr, "ctxscope tail: no session directory under %s\n", home)
	}
	p := &eventPrinter{w: env.Stdout, json: *asJSON}
	if *once {
		if *discover {
			pos = append(pos, tail.Discover(home)...)
		}
		return p.once(pos)
	}
	w, err := tail.New(tail.Options{AutoDiscover: *discover, Home: home})
	if err != nil {
		return err
	}
	defer w.Close()
	for _, p := range pos {
		if err := w.Add(p); err != nil {
			return err
		}
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	return p.follow(ctx, w, *count)
}

// follow prints the watcher's events until ctx ends or, when count > 0,
// count entry events were printed.
func (p *eventPrinter) follow(ctx context.Context, w *tail.Watcher, count int) error {
	entries := 0
	for {
		select {
		case <-ctx.Done():
			return nil
		case ev, ok := <-w.Events():
			if !ok {
				return nil
			}
			if err := p.print(ev); err != nil {
				return err
			}
			if ev.Kind == tail.EventEntry {
				if entries++; count > 0 && entries >= count {
					return nil
				}
			}
		}
	}
}

// eventPrinter writes tail events as text or JSON lines.
type eventPrinter struct {
	w    io.Writer
	json bool
}

// once prints what the files under paths hold now, as a follower would
// see it on its first look.
func (p *eventPrinter) once(paths []string) error {
	files, err := ingest.Expand(paths)
	if err != nil {
		return err
	}
	for _, f := range files {
		if err := p.onceFile(f); err != nil {
			return err
		}
	}
	return nil
}

// onceFile prints the events of one file read to its end.
func (p *eventPrinter) onceFile(path string) error {
	r := tail.Open(path, tail.Position{}, 0)
	defer r.Close()
	for {
		evs, err := r.Poll()
		for _, ev := range evs {
			if err := p.print(ev); err != nil {
				return err
			}
		}
		if err != nil || !r.More() {
			return err
		}
	}
}

func (p *eventPrinter) print(ev tail.Event) error {
	if p.json {
		out := struct {
			tail.Event
			Error string `json:"error,omitempty"`
		}{Event: ev}
		if ev.Err != nil {
			out.Error = ev.Err.Error()
		}
		b, err := json.Marshal(out)
		if err != nil {
			return err
		}
		_, err = fmt.Fprintf(p.w, "%s\n", b)
		return err
	}
	_, err := fmt.Fprintln(p.w, describeEvent(ev))
	return err
}

// describeEvent renders an event as one line of text.
func describeEvent(ev tail.Event) string {
	switch ev.Kind {
	case tail.EventOpened:
		s := ev.Session
		return fmt.Sprintf("== %s: %s session %s (%s)", ev.Path, s.Format, oneLine(s.ID, 80), oneLine(s.Agent, 60))
	case tail.EventReset:
		return fmt.Sprintf("== %s: truncated or replaced; reading it again", ev.Path)
	case tail.EventDiagnostic:
		return "!! " + oneLine(ev.Diagnostic.String(), 300)
	case tail.EventError:
		return fmt.Sprintf("!! %v", ev.Err)
	}
	e := ev.Entry
	verb := "+"
	if ev.Merged {
		verb = "~"
	}
	thread := ""
	if ev.ThreadKind == session.ThreadSubagent {
		thread = " [" + oneLine(ev.Thread, 60) + "]"
	}
	return fmt.Sprintf("%s %d%s %s", verb, e.Line, thread, entrySummary(e))
}

// entrySummary describes an entry in a few words.
func entrySummary(e *session.Entry) string {
	if e.Message == nil {
		s := string(e.Kind)
		if e.Type != "" {
			s += " " + oneLine(e.Type, 40)
		}
		if e.Value != "" {
			s += ": " + oneLine(e.Value, 80)
		}
		if e.Compaction != nil {
			s += ": " + oneLine(e.Compaction.Summary, 80)
		}
		return s
	}
	m := e.Message
	var parts []string
	for _, b := range m.Blocks {
		switch b.Type {
		case session.BlockText:
			parts = append(parts, oneLine(b.Text, 80))
		case session.BlockThinking:
			if b.Redacted {
				parts = append(parts, "(redacted thinking)")
			} else {
				parts = append(parts, "(thinking) "+oneLine(b.Text, 40))
			}
		case session.BlockOpaque:
			parts = append(parts, fmt.Sprintf("(encrypted reasoning, %d bytes)", b.Size))
		case session.BlockToolCall:
			parts = append(parts, "call "+oneLine(b.ToolName, 40)+" "+oneLine(string(b.Arguments), 60))
		case session.BlockToolResult:
			parts = append(parts, "result "+oneLine(b.ToolName, 40)+" "+oneLine(b.ResultText(), 60))
		case session.BlockImage:
			parts = append(parts, "(image)")
		}
	}
	role := string(m.Role)
	if m.Origin != "" {
		role += "/" + m.Origin
	}
	return role + ": " + strings.Join(parts, " | ")
}
