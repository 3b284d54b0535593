package otlp

import (
	"bytes"
	"fmt"
	"io"
	"regexp"

	"ctxscope/engine/ingest/internal/norm"
	"ctxscope/engine/session"
)

// Importer reads OTLP/JSON lines of GenAI traces and logs. The zero value
// is ready to use.
type Importer struct{}

// Format returns [session.FormatOTLP].
func (Importer) Format() session.Format { return session.FormatOTLP }

// Sniff reports whether head starts an OTLP/JSON export request.
func (Importer) Sniff(head []byte) bool {
	head = bytes.TrimLeft(head, "\xef\xbb\xbf \t\r\n")
	if len(head) == 0 || head[0] != '{' {
		return false
	}
	return requestKey.Match(head)
}

// requestKey is the key an OTLP/JSON export request starts with.
var requestKey = regexp.MustCompile(`"resource(Spans|Logs)"\s*:`)

// Import returns the first conversation of r.
func (im Importer) Import(r io.Reader, name string) (*session.Session, error) {
	return norm.First(func(emit func(*session.Session) error) error { return im.ImportEach(r, name, emit) }, name, "conversation")
}

// ImportEach reads every conversation of r, ordered by its first span.
// A line that is not an export request becomes an error diagnostic on
// the first session, with its line.
func (Importer) ImportEach(r io.Reader, name string, emit func(*session.Session) error) error {
	data, err := io.ReadAll(r)
	if err != nil {
		return fmt.Errorf("read %s: %w", name, err)
	}
	b := newBatch()
	var problems []session.Diagnostic
	lines := bytes.Split(data, []byte("\n"))
	for i, line := range lines {
		line = bytes.TrimSpace(line)
		if len(line) == 0 {
			continue
		}
		if err := b.addJSON(line, i+1); err != nil {
			if len(b.spans) == 0 && len(problems) == 0 && i < len(lines)-1 {
				// Not one request per line: a whole file holding one
				// pretty-printed request.
				if whole := newBatch(); whole.addJSON(bytes.TrimSpace(data), 1) == nil {
					b = whole
					break
				}
			}
			problems = append(problems, session.Diagnostic{File: name, Line: i + 1, Severity: session.SeverityError, Message: "skipped: " + err.Error()})
		}
	}
	b.attach()
	convs := b.conversations()
	if len(convs) == 0 && len(problems) > 0 {
		return fmt.Errorf("%s", problems[0])
	}
	for i, spans := range convs {
		s := buildSession(spans, name)
		if i == 0 {
			s.Diagnostics = append(problems, s.Diagnostics...)
		}
		if err := emit(s); err != nil {
			return err
		}
	}
	return nil
}
