// Package norm holds the small helpers every importer shares: diagnostics
// with locations, timestamps, JSON error messages, fallback titles and the
// content conversions common to chat-style formats.
package norm

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"time"
	"unicode/utf8"

	"ctxscope/engine/session"
)

// Diag appends a diagnostic at file:line to s.
func Diag(s *session.Session, file string, line int, sev session.Severity, format string, args ...any) {
	s.Diagnostics = append(s.Diagnostics, session.Diagnostic{File: file, Line: line, Severity: sev, Message: fmt.Sprintf(format, args...)})
}

// BaseID derives a session id from a file name: its base name without the
// extension.
func BaseID(name string) string {
	return strings.TrimSuffix(filepath.Base(name), filepath.Ext(name))
}

// Time parses an ISO 8601 timestamp, with or without a zone (a missing zone
// is read as UTC). A bad or empty one yields the zero time.
func Time(s string) time.Time {
	if s == "" {
		return time.Time{}
	}
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04:05.999999999"} {
		if t, err := time.Parse(layout, s); err == nil {
			return t.UTC()
		}
	}
	return time.Time{}
}

// JSONError shortens encoding/json's messages to what a user needs.
func JSONError(err error) string {
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case errors.As(err, &se):
		return fmt.Sprintf("invalid JSON: %s (at byte %d)", se.Error(), se.Offset)
	case errors.As(err, &te):
		want := te.Type.String()
		if te.Type.Name() == "" {
			want = te.Type.Kind().String() // an anonymous struct: its kind reads better
		}
		if te.Field != "" {
			return fmt.Sprintf("field %q: expected %s, got JSON %s", te.Field, want, te.Value)
		}
		return fmt.Sprintf("expected %s, got JSON %s", want, te.Value)
	case errors.Is(err, errors.ErrUnsupported):
		return err.Error()
	}
	if err.Error() == "unexpected EOF" {
		return "invalid JSON: the record ends early"
	}
	return "invalid JSON: " + err.Error()
}

// NonNull returns raw, or nil when it is empty or JSON null.
func NonNull(raw json.RawMessage) json.RawMessage {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || bytes.Equal(raw, []byte("null")) {
		return nil
	}
	return raw
}

// Text returns a one-block text content, or nil for an empty string.
func Text(s string) []session.Block {
	if s == "" {
		return nil
	}
	return []session.Block{{Type: session.BlockText, Text: s}}
}

// Title returns the first line of what the user wrote first in t, cut to
// 80 characters, as a fallback session title. Context an agent injects
// into user messages, wrapped in a tag of its own (<current_datetime>,
// <environment_context>, <session_context>, <system-reminder>), is passed
// over: it is not what the user asked.
func Title(t *session.Thread) string {
	if t == nil {
		return ""
	}
	for _, e := range t.Entries {
		if e.Message == nil || !e.Message.IsUser() {
			continue
		}
		for _, bl := range e.Message.Blocks {
			if bl.Type != session.BlockText {
				continue
			}
			if text := session.WithoutInjected(bl.Text); text != "" {
				return Short(text, 80)
			}
		}
	}
	return ""
}

// TaskTitle returns a title for a task statement: its first line that says
// something, cut to 80 runes. Lines that are only markup (<pr_description>,
// ISSUE:) or a short lead-in ending in a colon ("Consider the following PR
// description:") are passed over.
func TaskTitle(text string) string {
	for _, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		switch {
		case line == "":
		case strings.HasPrefix(line, "<") && strings.HasSuffix(line, ">") && !strings.Contains(line[1:], "<"):
		case strings.HasSuffix(line, ":") && len(line) <= 80:
		default:
			return Short(line, 80)
		}
	}
	return Short(text, 80)
}

// Short returns the first non-blank line of s, cut to n runes.
func Short(s string, n int) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	return ClipRunes(strings.TrimSpace(s), n)
}

// BigRecord is the size of a record past which a decoder drops the
// room it parsed it in, rather than keep it for the next record.
const BigRecord = 4 << 20

// ClipRunes cuts s to n runes, the last an ellipsis when it cuts. It reads
// no further than the cut: a title is taken from the first line of a
// message, which may be 200 MB long.
func ClipRunes(s string, n int) string {
	count, cut := 0, 0
	for i := range s {
		if count == n-1 {
			cut = i
		}
		if count == n {
			return s[:cut] + "…"
		}
		count++
	}
	return s
}

// Finish fills what every importer derives at the end: the start time from
// the first entry with a time, and the fallback title.
func Finish(s *session.Session) {
	var f Fallback
	f.Finish(s)
}

// Fallback keeps what [Finish] derives from the main thread's entries (the
// first time, the first user text) for a decoder that releases its
// entries as it goes (see jsonl.Releaser): Note them before each release,
// then Finish.
type Fallback struct {
	Started time.Time
	Title   string
}

// Note takes the start time and title from the main thread's entries when
// they are not known yet.
func (f *Fallback) Note(main *session.Thread) {
	if main == nil {
		return
	}
	if f.Started.IsZero() {
		for _, e := range main.Entries {
			if !e.Time.IsZero() {
				f.Started = e.Time
				break
			}
		}
	}
	if f.Title == "" {
		f.Title = Title(main)
	}
}

// Finish notes the entries still held, then fills the session's start time
// and title where the file gave none.
func (f *Fallback) Finish(s *session.Session) {
	f.Note(s.Main())
	if s.Started.IsZero() {
		s.Started = f.Started
	}
	if s.Title == "" {
		s.Title = f.Title
	}
}

// ValidUTF8 returns b with each byte that is not part of valid UTF-8
// replaced by U+FFFD, as encoding/json decodes strings.
func ValidUTF8(b []byte) []byte {
	out := make([]byte, 0, len(b)+16)
	for len(b) > 0 {
		r, size := utf8.DecodeRune(b)
		if r == utf8.RuneError && size == 1 {
			out = append(out, "\uFFFD"...)
		} else {
			out = append(out, b[:size]...)
		}
		b = b[size:]
	}
	return out
}

// FastJSONError shortens a fastjson parse error: fastjson quotes the whole
// unparsed rest of the line, which for a long line buries the cause.
func FastJSONError(err error) error {
	msg := err.Error()
	if i := strings.Index(msg, "; unparsed tail:"); i >= 0 {
		msg = msg[:i]
	}
	msg = strings.TrimPrefix(msg, "cannot parse JSON: ")
	if i := strings.Index(msg, "too big depth"); i >= 0 {
		// fastjson wraps its depth error once per level it went down.
		msg = msg[i:]
	}
	if len(msg) > 200 {
		msg = msg[:200] + "…"
	}
	return errors.New("invalid JSON: " + msg)
}

// First runs a multi-session import and returns its first session, for
// importers whose Import returns one session of a file that may hold
// several; what names the kind of session in the error for a file that
// holds none.
func First(each func(emit func(*session.Session) error) error, name, what string) (*session.Session, error) {
	var first *session.Session
	err := each(func(s *session.Session) error {
		if first == nil {
			first = s
		}
		return nil
	})
	if err == nil && first == nil {
		err = fmt.Errorf("%s: no %s found", name, what)
	}
	return first, err
}
