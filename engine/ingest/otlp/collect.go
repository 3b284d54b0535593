package otlp

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"time"

	"ctxscope/engine/ingest/internal/jsondepth"

	"go.opentelemetry.io/collector/pdata/plog"
	"go.opentelemetry.io/collector/pdata/ptrace"
)

// span is one span with what the conversion reads of it.
type span struct {
	traceID, id, parent string
	name                string
	start, end          time.Time
	attrs               map[string]any
	service             string // the resource's service.name
	events              []event
	line                int // of the request that held it
}

// event is a span event, or a log record tied to a span.
type event struct {
	name  string
	time  time.Time
	attrs map[string]any
	body  any
}

// batch is what requests held: spans, and the log events that name no span
// of theirs yet (their span may come in a later request).
type batch struct {
	spans []*span
	logs  map[string][]event // by span id
	// seen indexes spans by trace and span id: an exporter that retries
	// sends a span again, and the copy replaces the first.
	seen map[[2]string]int
	// seenLogs holds the log records read, by span and content.
	seenLogs map[[2]string]bool
	// agents holds the agents' own events (Codex's, Claude Code's: see
	// agentevents.go), which name no span, by agent and conversation.
	agents map[agentConversation]*agentEvents
	// What the requests added changed, for a Stream: how many spans a
	// copy replaced, the spans log events were added for, and the agent
	// conversations that gained events.
	replaced int
	// lines counts the whole lines read (each ended by a newline).
	lines       int
	logged      []string
	agentsAdded map[agentConversation]bool
}

func newBatch() *batch {
	return &batch{logs: map[string][]event{}, seen: map[[2]string]int{}, seenLogs: map[[2]string]bool{},
		agents: map[agentConversation]*agentEvents{}, agentsAdded: map[agentConversation]bool{}}
}

// errNotOTLP is returned for JSON that is neither a trace nor a logs
// export request.
var errNotOTLP = errors.New("neither resourceSpans nor resourceLogs: not an OTLP export request")

// addJSON adds one OTLP/JSON export request.
func (b *batch) addJSON(data []byte, line int) error {
	if err := jsondepth.Check(data, jsondepth.Max); err != nil {
		return err
	}
	switch {
	case bytes.Contains(data, []byte(`"resourceSpans"`)):
		td, err := (&ptrace.JSONUnmarshaler{}).UnmarshalTraces(data)
		if err != nil {
			return fmt.Errorf("traces: %w", err)
		}
		b.addTraces(td, line)
	case bytes.Contains(data, []byte(`"resourceLogs"`)):
		ld, err := (&plog.JSONUnmarshaler{}).UnmarshalLogs(data)
		if err != nil {
			return fmt.Errorf("logs: %w", err)
		}
		b.addLogs(ld)
	default:
		if !json.Valid(data) {
			return fmt.Errorf("invalid JSON")
		}
		return errNotOTLP
	}
	return nil
}

// addTraces adds the spans of td.
func (b *batch) addTraces(td ptrace.Traces, line int) {
	rss := td.ResourceSpans()
	for i := 0; i < rss.Len(); i++ {
		rs := rss.At(i)
		service := ""
		if v, ok := rs.Resource().Attributes().Get("service.name"); ok {
			service = v.AsString()
		}
		sss := rs.ScopeSpans()
		for j := 0; j < sss.Len(); j++ {
			spans := sss.At(j).Spans()
			for k := 0; k < spans.Len(); k++ {
				s := newSpan(spans.At(k), service, line)
				key := [2]string{s.traceID, s.id}
				if i, ok := b.seen[key]; ok && s.id != "" {
					b.spans[i] = s
					b.replaced++
					continue
				}
				b.seen[key] = len(b.spans)
				b.spans = append(b.spans, s)
			}
		}
	}
}

func newSpan(s ptrace.Span, service string, line int) *span {
	out := &span{traceID: idString(s.TraceID()), id: idString(s.SpanID()), parent: idString(s.ParentSpanID()), name: s.Name(),
		start: s.StartTimestamp().AsTime().UTC(), end: s.EndTimestamp().AsTime().UTC(), attrs: s.Attributes().AsRaw(), service: service, line: line}
	evs := s.Events()
	for i := 0; i < evs.Len(); i++ {
		e := evs.At(i)
		out.events = append(out.events, event{name: e.Name(), time: e.Timestamp().AsTime().UTC(), attrs: e.Attributes().AsRaw()})
	}
	return out
}

// addLogs adds the GenAI events among the log records of ld, by the span
// they name. Records of no span, or of no GenAI event, are not session
// content.
func (b *batch) addLogs(ld plog.Logs) {
	rls := ld.ResourceLogs()
	for i := 0; i < rls.Len(); i++ {
		service := ""
		if v, ok := rls.At(i).Resource().Attributes().Get("service.name"); ok {
			service = v.AsString()
		}
		sls := rls.At(i).ScopeLogs()
		for j := 0; j < sls.Len(); j++ {
			lrs := sls.At(j).LogRecords()
			for k := 0; k < lrs.Len(); k++ {
				lr := lrs.At(k)
				attrs := lr.Attributes().AsRaw()
				// The event.name attribute, else the record's event name:
				// Codex's records carry its Rust event's in the field
				// ("event otel/src/events/…"), and the event's own name in
				// the attribute.
				name := attrString(attrs, "event.name")
				if name == "" {
					name = lr.EventName()
				}
				t := lr.Timestamp()
				if t == 0 {
					t = lr.ObservedTimestamp()
				}
				if agent, name, conv := agentEvent(name, attrs, lr.Body().AsRaw()); agent != "" {
					b.addAgentEvent(agentConversation{agent, conv}, event{name: name, time: t.AsTime().UTC(), attrs: attrs}, service)
					continue
				}
				if !isGenAIEvent(name) || lr.SpanID().IsEmpty() {
					continue
				}
				id := idString(lr.SpanID())
				// An exporter that retries sends a record again: the same
				// span, event, time and body count once.
				key := [2]string{id, name + "\x00" + strconv.FormatUint(uint64(t), 10) + "\x00" + lr.Body().AsString()}
				if b.seenLogs[key] {
					continue
				}
				b.seenLogs[key] = true
				b.logged = append(b.logged, id)
				b.logs[id] = append(b.logs[id], event{name: name, time: t.AsTime().UTC(), attrs: attrs, body: lr.Body().AsRaw()})
			}
		}
	}
}

// addAgentEvent adds one of an agent's own events to its conversation,
// once: an exporter that retries sends it again.
func (b *batch) addAgentEvent(c agentConversation, e event, service string) {
	key := [2]string{"agent\x00" + c.agent + "\x00" + c.id, e.name + "\x00" + e.time.String() + "\x00" + attrString(e.attrs, "event.sequence") + "\x00" +
		attrString(e.attrs, "event.kind") + "\x00" + attrString(e.attrs, "call_id") + attrString(e.attrs, "tool_use_id")}
	if b.seenLogs[key] {
		return
	}
	b.seenLogs[key] = true
	evs := b.agents[c]
	if evs == nil {
		evs = &agentEvents{service: service}
		b.agents[c] = evs
	}
	evs.events = append(evs.events, e)
	b.agentsAdded[c] = true
}

// attach gives each span the log events that name it, after its own
// events, in time order of arrival.
func (b *batch) attach() {
	for _, s := range b.spans {
		if evs := b.logs[s.id]; len(evs) > 0 {
			s.events = append(s.events, evs...)
			delete(b.logs, s.id)
		}
	}
}

func idString[T interface {
	IsEmpty() bool
	String() string
}](id T) string {
	if id.IsEmpty() {
		return ""
	}
	return id.String()
}
