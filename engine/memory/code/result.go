package code

import (
	"strconv"
	"strings"
	"time"

	"ctxscope/engine/memory/kg"
	"ctxscope/engine/session"
)

// describeCall renders a tool call as its passage: the tool and what it
// acts on, then any code it writes.
func describeCall(c Call, b *session.Block) string {
	head := c.Tool
	switch {
	case c.Shell != nil:
		head += ": " + c.Shell.Line
		if len(c.Shell.Writes) > 0 {
			return head // the here-document is the line
		}
	case c.Pattern != "":
		head += ": " + c.Pattern
		if len(c.Paths) > 0 {
			head += " in " + strings.Join(c.Paths, ", ")
		}
	case len(c.Paths) > 0:
		head += ": " + strings.Join(c.Paths, ", ")
		if c.Lines != "" {
			head += " (" + c.Lines + ")"
		}
	case c.URL != "":
		head += ": " + c.URL
	default:
		if len(b.Arguments) > 0 && string(b.Arguments) != "{}" {
			head += " " + string(b.Arguments)
		}
		return head
	}
	if c.Text != "" {
		head += "\n" + c.Text
	}
	return head
}

// resultText joins the text of a tool result's content.
func resultText(b *session.Block) string {
	var parts []string
	for _, c := range b.Content {
		if c.Type == session.BlockText && c.Text != "" {
			parts = append(parts, c.Text)
		}
	}
	return strings.Join(parts, "\n")
}

// result reads a tool result against the call it answers.
func (r *Reader) result(st *threadState, ref Ref, b *session.Block, at time.Time) {
	text := resultText(b)
	pc, known := st.calls[b.ToolCallID]
	delete(st.calls, b.ToolCallID)
	prefix := "[" + firstOf(b.ToolName, pc.call.Tool, "tool") + " result] "
	ids := r.passages(ref, "tool", prefix, text, at)
	if !known {
		r.mentions(text, ids)
		return
	}
	c, task := pc.call, pc.task
	evidence := append([]string{pc.passage}, ids...)
	bad := b.IsError
	if c.Verb == VerbRun {
		bad = failed(b.IsError, text)
	}
	switch c.Verb {
	case VerbRead:
		for _, p := range c.Paths {
			file := r.entity(p, TypeFile)
			if bad {
				r.failure(file, text, evidence, at)
				continue
			}
			r.relate(task, "read", file, c.Lines, evidence, at)
			if len(c.Paths) == 1 {
				r.code(file, p, text, ids, at)
			}
		}
	case VerbSearch:
		r.relate(task, "searched", r.entity(c.Pattern, TypeSearch), "", evidence, at)
		for _, p := range c.Paths { // what it told of the files it ran over
			r.relate(task, "searched", r.entity(p, TypeFile), "for "+c.Pattern, evidence, at)
		}
	case VerbEdit, VerbCreate:
		r.wrote(st, pc, bad, text, evidence, at)
	case VerbRun:
		r.run(st, task, c.Shell, bad, text, evidence, at)
		for _, p := range c.Paths { // what wc, stat, diff… told of the files
			r.relate(task, "inspected", r.entity(p, TypeFile), c.Shell.Command, evidence, at)
		}
	case VerbFetch:
		r.relate(task, "fetched", r.entity(c.URL, TypeURL), "", evidence, at)
	default:
		r.mentions(text, ids)
	}
}

// wrote records an edit or a file's creation by call pc (or, when bad,
// how it failed): the files it wrote, the code it wrote into them, and
// that they are untested and may fix what a check left failing.
func (r *Reader) wrote(st *threadState, pc pendingCall, bad bool, text string, evidence []string, at time.Time) {
	c := pc.call
	pred := "edited"
	if c.Verb == VerbCreate {
		pred = "created"
	}
	for _, p := range c.Paths {
		file := r.entity(p, TypeFile)
		if bad {
			r.failure(file, text, evidence, at)
			continue
		}
		r.relate(pc.task, pred, file, "", evidence, at)
		r.code(file, p, c.Text, []string{pc.passage}, at)
		st.untested = appendNew(st.untested, p)
		for _, f := range st.open {
			f.edits = appendNew(f.edits, p)
		}
	}
}

// run records a shell command: what it ran, how it failed, what a later
// success says fixed it, what a test run tested. Only a check (a build,
// type check, lint or test) that fails and later passes says that the
// files edited in between fixed its error.
func (r *Reader) run(st *threadState, task *kg.Entity, sh *Shell, bad bool, text string, evidence []string, at time.Time) {
	typ := TypeCommand
	if sh.Test {
		typ = TypeTest
	}
	cmd := r.entity(sh.Command, typ)
	r.relate(task, "ran", cmd, "", evidence, at)
	if sh.Test {
		for _, p := range st.untested {
			r.relate(r.entity(p, TypeFile), "tested-by", cmd, "", evidence, at)
		}
		st.untested = nil
	}
	if bad {
		errEnt := r.failure(cmd, text, evidence, at)
		if sh.Test {
			for _, name := range FailingTests(text) {
				r.relate(cmd, "failed-test", r.entity(name, TypeTest), "", evidence, at)
			}
		}
		if errEnt != nil && sh.Check {
			st.open[sh.Command] = &failure{err: errEnt}
		}
		return
	}
	for _, pkg := range sh.Installs {
		r.relate(task, "installed", r.entity(pkg, TypePackage), "", evidence, at)
	}
	if f := st.open[sh.Command]; f != nil {
		for _, p := range f.edits {
			r.relate(f.err, "fixed-by", r.entity(p, TypeFile), "edited before "+sh.Command+" passed", evidence, at)
		}
		delete(st.open, sh.Command)
	}
}

// failure records that subject failed with the error text states, and
// where the error arose; it returns the error, nil when the text names
// none.
func (r *Reader) failure(subject *kg.Entity, text string, evidence []string, at time.Time) *kg.Entity {
	msg := ErrorMessage(text)
	if msg == "" {
		if m := exitStatus.FindStringSubmatch(text); m != nil {
			msg = "exit status " + m[1]
		} else {
			return nil
		}
	}
	errEnt := r.entity(msg, TypeError)
	r.relate(subject, "failed-with", errEnt, "", evidence, at)
	for i, l := range Locations(text) {
		if i == 3 {
			break
		}
		cond := ""
		if l.Line > 0 {
			cond = "line " + strconv.Itoa(l.Line)
		}
		r.relate(errEnt, "arose-in", r.entity(r.rel(l.Path), TypeFile), cond, evidence, at)
	}
	return errEnt
}

// code records the declarations and imports of source text a file holds.
func (r *Reader) code(file *kg.Entity, path, source string, evidence []string, at time.Time) {
	if !IsSource(path) {
		return
	}
	for i, s := range Declarations(source) {
		if i == perBlock {
			break
		}
		name := s.Name
		if s.Kind == "function" {
			name += "()"
		}
		r.relate(file, "defines", r.entity(name, TypeSymbol), "", evidence, at)
	}
	for i, pkg := range Imports(path, source) {
		if i == perBlock {
			break
		}
		r.relate(file, "depends-on", r.entity(pkg, TypePackage), "", evidence, at)
	}
}
