// Package otlptest writes hostile OTLP exports for tests and benchmarks.
package otlptest

import (
	"encoding/binary"
	"strings"

	"go.opentelemetry.io/collector/pdata/pcommon"
	"go.opentelemetry.io/collector/pdata/ptrace"
)

// AmplifyingExport is an OTLP/JSON export of one resource with a 1 MiB
// attribute and spans spans spread over convs traces, each naming no
// conversation: the shape that once made the receiver copy the resource
// per span (1.46 MB in, 8 GB held).
func AmplifyingExport(spans, convs int) []byte {
	td := ptrace.NewTraces()
	rs := td.ResourceSpans().AppendEmpty()
	rs.Resource().Attributes().PutStr("service.name", "amplifier")
	rs.Resource().Attributes().PutStr("padding", strings.Repeat("x", 1<<20))
	ss := rs.ScopeSpans().AppendEmpty()
	ss.Scope().SetName(strings.Repeat("s", 64<<10))
	for i := range spans {
		s := ss.Spans().AppendEmpty()
		var tid [16]byte
		binary.BigEndian.PutUint64(tid[8:], uint64(i%convs)+1)
		s.SetTraceID(pcommon.TraceID(tid))
		var sid [8]byte
		binary.BigEndian.PutUint64(sid[:], uint64(i)+1)
		s.SetSpanID(pcommon.SpanID(sid))
		s.SetName("chat m")
	}
	b, _ := (&ptrace.JSONMarshaler{}).MarshalTraces(td)
	return b
}
