package otlp

import (
	"fmt"
	"sync"
	"unicode/utf8"

	"ctxscope/engine/ingest/internal/jsondepth"

	"go.opentelemetry.io/collector/pdata/pcommon"
	"go.opentelemetry.io/collector/pdata/plog"
	"go.opentelemetry.io/collector/pdata/ptrace"
)

// Signal names what an OTLP export carries.
type Signal string

// The signals an OTLP/HTTP receiver takes (at /v1/traces and /v1/logs).
const (
	Traces Signal = "traces"
	Logs   Signal = "logs"
)

// Spooler splits OTLP exports by conversation for a receiver that keeps
// each conversation in a file of its own (OTLP/JSON lines, which the
// Importer reads). It remembers which conversation each trace belongs to,
// so that the spans of a trace that do not name their conversation join
// the spans that did, in this export or an earlier one. Its methods are
// safe for concurrent use.
type Spooler struct {
	mu     sync.Mutex
	traces map[string]string // trace id -> conversation
}

// maxTraces bounds the traces a Spooler remembers; past it, it forgets
// them all and starts again (a trace rarely outlives a few exports).
const maxTraces = 100_000

// NewSpooler returns a Spooler that knows no trace yet.
func NewSpooler() *Spooler { return &Spooler{traces: map[string]string{}} }

// Split decodes one export request body (protobuf, or OTLP/JSON when
// isJSON) and returns, for each conversation, an export request holding
// only its spans or log records, encoded as one line of OTLP/JSON; and
// how many spans or log records the export held. A span filed under a
// conversation it does not name carries the attribute
// ctxscope.conversation.id.
func (sp *Spooler) Split(sig Signal, body []byte, isJSON bool) (map[string][]byte, int, error) {
	switch sig {
	case Traces:
		var td ptrace.Traces
		var err error
		if isJSON {
			if err := jsondepth.Check(body, jsondepth.Max); err != nil {
				return nil, 0, fmt.Errorf("otlp: decode traces: %w", err)
			}
			td, err = (&ptrace.JSONUnmarshaler{}).UnmarshalTraces(body)
		} else {
			td, err = (&ptrace.ProtoUnmarshaler{}).UnmarshalTraces(body)
		}
		if err != nil {
			return nil, 0, fmt.Errorf("otlp: decode traces: %w", err)
		}
		return sp.splitTraces(td)
	case Logs:
		var ld plog.Logs
		var err error
		if isJSON {
			if err := jsondepth.Check(body, jsondepth.Max); err != nil {
				return nil, 0, fmt.Errorf("otlp: decode logs: %w", err)
			}
			ld, err = (&plog.JSONUnmarshaler{}).UnmarshalLogs(body)
		} else {
			ld, err = (&plog.ProtoUnmarshaler{}).UnmarshalLogs(body)
		}
		if err != nil {
			return nil, 0, fmt.Errorf("otlp: decode logs: %w", err)
		}
		return sp.splitLogs(ld)
	}
	return nil, 0, fmt.Errorf("otlp: unknown signal %q", sig)
}

// learn records the conversations the spans of td name for their traces.
// The caller holds sp.mu.
func (sp *Spooler) learn(td ptrace.Traces) {
	if len(sp.traces) > maxTraces {
		clear(sp.traces)
	}
	eachSpan(td, func(_ ptrace.ResourceSpans, _ ptrace.ScopeSpans, s ptrace.Span) {
		if k := spanConversation(s.Attributes()); k != "" {
			if t := s.TraceID().String(); sp.traces[t] == "" {
				sp.traces[t] = k
			}
		}
	})
}

// conversationOf files a record of trace under a conversation: the one it
// names, else its trace's, else the trace itself.
func (sp *Spooler) conversationOf(own, trace string) string {
	if own != "" {
		return own
	}
	if k := sp.traces[trace]; k != "" {
		return k
	}
	return trace
}

// place is where a span or log record sits in its export: the indexes
// of its resource and scope.
type place struct{ resource, scope int }

// traceGroup is the part of an export that one conversation's spans make.
type traceGroup struct {
	td     ptrace.Traces
	scopes map[place]ptrace.ScopeSpans
	rs     map[int]ptrace.ResourceSpans
}

// scope returns the group's copy of the scope at p of the export, whose
// resource is rs and scope ss, adding it (and its resource, once) with
// only what the importer reads of them on first use.
func (g *traceGroup) scope(p place, rs ptrace.ResourceSpans, ss ptrace.ScopeSpans) ptrace.ScopeSpans {
	if oss, ok := g.scopes[p]; ok {
		return oss
	}
	ors, ok := g.rs[p.resource]
	if !ok {
		ors = g.td.ResourceSpans().AppendEmpty()
		keepResource(rs.Resource(), ors.Resource())
		ors.SetSchemaUrl(rs.SchemaUrl())
		g.rs[p.resource] = ors
	}
	oss := ors.ScopeSpans().AppendEmpty()
	keepScope(ss.Scope(), oss.Scope())
	oss.SetSchemaUrl(ss.SchemaUrl())
	g.scopes[p] = oss
	return oss
}

// splitTraces files each span under its conversation. A conversation's
// part holds each resource and scope of the export once, however many of
// its spans it holds, and of them only what the importer reads (see
// keepResource): copying them whole per span made a 1.46 MB export (one
// resource with a 1 MiB attribute, 8,000 spans) take 8 GB. What the part
// holds is thus bounded by the export's size plus a small constant per
// conversation, and an export names at most maxConversations.
func (sp *Spooler) splitTraces(td ptrace.Traces) (map[string][]byte, int, error) {
	sp.mu.Lock()
	defer sp.mu.Unlock()
	sp.learn(td)
	groups := map[string]*traceGroup{}
	n := 0
	rss := td.ResourceSpans()
	for i := 0; i < rss.Len(); i++ {
		rs := rss.At(i)
		sss := rs.ScopeSpans()
		for j := 0; j < sss.Len(); j++ {
			ss := sss.At(j)
			spans := ss.Spans()
			for k := 0; k < spans.Len(); k++ {
				s := spans.At(k)
				n++
				own := spanConversation(s.Attributes())
				key := sp.conversationOf(own, s.TraceID().String())
				g := groups[key]
				if g == nil {
					if len(groups) == maxConversations {
						return nil, 0, errTooManyConversations
					}
					g = &traceGroup{td: ptrace.NewTraces(), scopes: map[place]ptrace.ScopeSpans{}, rs: map[int]ptrace.ResourceSpans{}}
					groups[key] = g
				}
				dst := g.scope(place{i, j}, rs, ss).Spans().AppendEmpty()
				s.CopyTo(dst)
				if own == "" && key != s.TraceID().String() {
					dst.Attributes().PutStr(attrSpooled, key)
				}
			}
		}
	}
	out := make(map[string][]byte, len(groups))
	for k, g := range groups {
		b, err := (&ptrace.JSONMarshaler{}).MarshalTraces(g.td)
		if err != nil {
			return nil, 0, err
		}
		out[k] = b
	}
	return out, n, nil
}

// splitLogs files each log record under its conversation, each resource
// and scope once per conversation, as splitTraces does.
func (sp *Spooler) splitLogs(ld plog.Logs) (map[string][]byte, int, error) {
	sp.mu.Lock()
	defer sp.mu.Unlock()
	type group struct {
		ld     plog.Logs
		scopes map[place]plog.ScopeLogs
		rl     map[int]plog.ResourceLogs
	}
	groups := map[string]*group{}
	n := 0
	rls := ld.ResourceLogs()
	for i := 0; i < rls.Len(); i++ {
		rl := rls.At(i)
		sls := rl.ScopeLogs()
		for j := 0; j < sls.Len(); j++ {
			sl := sls.At(j)
			lrs := sl.LogRecords()
			for k := 0; k < lrs.Len(); k++ {
				lr := lrs.At(k)
				n++
				key := sp.conversationOf(spanConversation(lr.Attributes()), lr.TraceID().String())
				g := groups[key]
				if g == nil {
					if len(groups) == maxConversations {
						return nil, 0, errTooManyConversations
					}
					g = &group{ld: plog.NewLogs(), scopes: map[place]plog.ScopeLogs{}, rl: map[int]plog.ResourceLogs{}}
					groups[key] = g
				}
				osl, ok := g.scopes[place{i, j}]
				if !ok {
					orl, ok := g.rl[i]
					if !ok {
						orl = g.ld.ResourceLogs().AppendEmpty()
						keepResource(rl.Resource(), orl.Resource())
						orl.SetSchemaUrl(rl.SchemaUrl())
						g.rl[i] = orl
					}
					osl = orl.ScopeLogs().AppendEmpty()
					keepScope(sl.Scope(), osl.Scope())
					osl.SetSchemaUrl(sl.SchemaUrl())
					g.scopes[place{i, j}] = osl
				}
				lr.CopyTo(osl.LogRecords().AppendEmpty())
			}
		}
	}
	out := make(map[string][]byte, len(groups))
	for k, g := range groups {
		b, err := (&plog.JSONMarshaler{}).MarshalLogs(g.ld)
		if err != nil {
			return nil, 0, err
		}
		out[k] = b
	}
	return out, n, nil
}

// maxConversations bounds the conversations one export may add to: each
// becomes a session imported at once. An exporter's batch (512 spans by
// default) holds a few.
const maxConversations = 256

var errTooManyConversations = fmt.Errorf("otlp: the export names more than %d conversations", maxConversations)

// maxKeptValue bounds each resource or scope value kept in a
// conversation's part.
const maxKeptValue = 1 << 10

// keepResource copies to dst what the importer reads of a resource, its
// service.name, at most maxKeptValue bytes of it.
func keepResource(src, dst pcommon.Resource) {
	if v, ok := src.Attributes().Get("service.name"); ok {
		dst.Attributes().PutStr("service.name", truncated(v.AsString()))
	}
}

// keepScope copies a scope's name and version, at most maxKeptValue bytes
// of each.
func keepScope(src, dst pcommon.InstrumentationScope) {
	dst.SetName(truncated(src.Name()))
	dst.SetVersion(truncated(src.Version()))
}

func truncated(s string) string {
	if len(s) <= maxKeptValue {
		return s
	}
	cut := maxKeptValue
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut]
}

// spanConversation is the conversation a span's or record's attributes
// name, read without converting the other attributes (AsRaw would copy
// every one, however large).
func spanConversation(attrs pcommon.Map) string {
	for _, key := range []string{attrConversation, attrSessionID, attrSpooled, attrCodexConversation} {
		if v, ok := attrs.Get(key); ok && v.Type() != pcommon.ValueTypeEmpty {
			if k := v.AsString(); k != "" {
				return k
			}
		}
	}
	return ""
}

func eachSpan(td ptrace.Traces, fn func(ptrace.ResourceSpans, ptrace.ScopeSpans, ptrace.Span)) {
	rss := td.ResourceSpans()
	for i := 0; i < rss.Len(); i++ {
		rs := rss.At(i)
		sss := rs.ScopeSpans()
		for j := 0; j < sss.Len(); j++ {
			ss := sss.At(j)
			spans := ss.Spans()
			for k := 0; k < spans.Len(); k++ {
				fn(rs, ss, spans.At(k))
			}
		}
	}
}
