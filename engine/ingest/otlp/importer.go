package otlp

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"regexp"
	"sort"

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
// It reads a request per line, so that memory holds the spans and not the
// file too; a file whose first line is not a whole request is read as one
// pretty-printed request. A line that is not an export request becomes an
// error diagnostic on the first session, with its line; a file of no
// readable request is an error naming its first bad line.
func (Importer) ImportEach(r io.Reader, name string, emit func(*session.Session) error) error {
	b, problems, err := readBatch(r, name)
	if err != nil {
		return err
	}
	b.attach()
	convs := b.conversations()
	if len(convs) == 0 && len(b.agents) == 0 && len(problems) > 0 {
		return fmt.Errorf("%s", problems[0])
	}
	var sessions []*session.Session
	for _, spans := range convs {
		sessions = append(sessions, buildSession(spans, name))
	}
	for _, k := range b.agentKeys() {
		sessions = append(sessions, buildAgentSession(k, b.agents[k], name))
	}
	for i, s := range sessions {
		if i == 0 {
			s.Diagnostics = append(problems, s.Diagnostics...)
		}
		if err := emit(s); err != nil {
			return err
		}
	}
	return nil
}

// readBatch reads the export requests of r, one per line or one
// pretty-printed, and returns them with a diagnostic for each line that
// is not one.
func readBatch(r io.Reader, name string) (*batch, []session.Diagnostic, error) {
	br := bufio.NewReaderSize(r, 1<<20)
	b := newBatch()
	var problems []session.Diagnostic
	for line, first := 1, true; ; line++ {
		text, err := br.ReadBytes('\n')
		if err != nil && !errors.Is(err, io.EOF) {
			return nil, nil, fmt.Errorf("read %s: %w", name, err)
		}
		eof := err != nil
		if !eof {
			b.lines = line
		}
		if t := bytes.TrimSpace(text); len(t) > 0 {
			if perr := b.addJSON(t, line); perr != nil {
				if first && !json.Valid(t) && !eof {
					// Not one request per line: one pretty-printed request.
					rest, rerr := io.ReadAll(br)
					if rerr != nil {
						return nil, nil, fmt.Errorf("read %s: %w", name, rerr)
					}
					if whole := newBatch(); whole.addJSON(bytes.TrimSpace(append(text, rest...)), 1) == nil {
						return whole, problems, nil
					}
					// Neither: a bad first line, then lines to read one by one.
					problems = append(problems, badLine(name, line, perr))
					for i, l := range bytes.Split(rest, []byte("\n")) {
						if l = bytes.TrimSpace(l); len(l) > 0 {
							if err := b.addJSON(l, line+1+i); err != nil {
								problems = append(problems, badLine(name, line+1+i, err))
							}
						}
					}
					return b, problems, nil
				}
				problems = append(problems, badLine(name, line, perr))
			}
			first = false
		}
		if eof {
			return b, problems, nil
		}
	}
}

// agentKeys lists the batch's agent conversations in the order sessions
// take them.
func (b *batch) agentKeys() []agentConversation {
	keys := make([]agentConversation, 0, len(b.agents))
	for k := range b.agents {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool { return keys[i].agent+"\x00"+keys[i].id < keys[j].agent+"\x00"+keys[j].id })
	return keys
}

func badLine(file string, line int, err error) session.Diagnostic {
	return session.Diagnostic{File: file, Line: line, Severity: session.SeverityError, Message: "skipped: " + err.Error()}
}
