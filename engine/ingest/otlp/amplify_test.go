package otlp

import (
	"bytes"
	"testing"

	"ctxscope/engine/ingest/otlp/otlptest"
)

// TestSplitKeepsEachResourceOnce splits the amplifying export over one
// conversation and over the most an export may name: what the parts hold
// together stays within a small multiple of the export, and one more
// conversation is refused.
func TestSplitKeepsEachResourceOnce(t *testing.T) {
	for _, convs := range []int{1, maxConversations} {
		body := otlptest.AmplifyingExport(8000, convs)
		parts, n, err := NewSpooler().Split(Traces, body, true)
		if err != nil || n != 8000 || len(parts) != convs {
			t.Fatalf("%d conversations: %d parts, %d spans, %v", convs, len(parts), n, err)
		}
		total := 0
		for _, p := range parts {
			total += len(p)
			if !bytes.Contains(p, []byte(`"amplifier"`)) {
				t.Errorf("a part lost the service's name")
			}
		}
		if total > 2*len(body) {
			t.Errorf("%d conversations: the parts hold %d bytes for an export of %d", convs, total, len(body))
		}
	}
	if _, _, err := NewSpooler().Split(Traces, otlptest.AmplifyingExport(maxConversations+1, maxConversations+1), true); err == nil {
		t.Errorf("an export of %d conversations was split", maxConversations+1)
	}
}
