package otlp

import (
	"fmt"
	"sync"

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
		if k := ownConversation(s.Attributes().AsRaw()); k != "" {
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

func (sp *Spooler) splitTraces(td ptrace.Traces) (map[string][]byte, int, error) {
	sp.mu.Lock()
	defer sp.mu.Unlock()
	sp.learn(td)
	groups := map[string]ptrace.Traces{}
	n := 0
	eachSpan(td, func(rs ptrace.ResourceSpans, ss ptrace.ScopeSpans, s ptrace.Span) {
		n++
		own := ownConversation(s.Attributes().AsRaw())
		key := sp.conversationOf(own, s.TraceID().String())
		g, ok := groups[key]
		if !ok {
			g = ptrace.NewTraces()
			groups[key] = g
		}
		out := g.ResourceSpans().AppendEmpty()
		rs.Resource().CopyTo(out.Resource())
		oss := out.ScopeSpans().AppendEmpty()
		ss.Scope().CopyTo(oss.Scope())
		dst := oss.Spans().AppendEmpty()
		s.CopyTo(dst)
		if own == "" && key != s.TraceID().String() {
			dst.Attributes().PutStr(attrSpooled, key)
		}
	})
	out := make(map[string][]byte, len(groups))
	for k, g := range groups {
		b, err := (&ptrace.JSONMarshaler{}).MarshalTraces(g)
		if err != nil {
			return nil, 0, err
		}
		out[k] = b
	}
	return out, n, nil
}

func (sp *Spooler) splitLogs(ld plog.Logs) (map[string][]byte, int, error) {
	sp.mu.Lock()
	defer sp.mu.Unlock()
	groups := map[string]plog.Logs{}
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
				key := sp.conversationOf(ownConversation(lr.Attributes().AsRaw()), lr.TraceID().String())
				g, ok := groups[key]
				if !ok {
					g = plog.NewLogs()
					groups[key] = g
				}
				out := g.ResourceLogs().AppendEmpty()
				rl.Resource().CopyTo(out.Resource())
				osl := out.ScopeLogs().AppendEmpty()
				sl.Scope().CopyTo(osl.Scope())
				lr.CopyTo(osl.LogRecords().AppendEmpty())
			}
		}
	}
	out := make(map[string][]byte, len(groups))
	for k, g := range groups {
		b, err := (&plog.JSONMarshaler{}).MarshalLogs(g)
		if err != nil {
			return nil, 0, err
		}
		out[k] = b
	}
	return out, n, nil
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
