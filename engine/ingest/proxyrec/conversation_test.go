package proxyrec

import (
	"encoding/json"
	"reflect"
	"testing"

	"ctxscope/engine/proxy"
	"ctxscope/engine/session"
)

// TestConversationForksThePendingRequest grows a conversation record by
// record, asking at each step what it would be with the next request
// last: that must be the session a whole file of the records so far and
// the pending request decodes to, and asking must leave the conversation
// as it was (the next record then decodes as if no one had asked).
func TestConversationForksThePendingRequest(t *testing.T) {
	recs := []string{
		line(t, 1, proxy.APIChat, 200, chat1, chatStream1),
		line(t, 2, proxy.APIChat, 529, chat2, `{"error":"overloaded"}`),
		line(t, 3, proxy.APIChat, 200, chat2, chatWhole2),
		line(t, 4, proxy.APIChat, 200, chat2edited, chatWhole2),
	}
	c := NewConversation("c-1.jsonl")
	for i, l := range recs {
		var rec proxy.Record
		if err := json.Unmarshal([]byte(l), &rec); err != nil {
			t.Fatal(err)
		}
		if i > 0 {
			pending := rec
			pending.Response = proxy.Body{}
			got, layout := c.With(&pending)
			checkLayout(t, pending.Request.Text, layout)
			pl, _ := json.Marshal(pending)
			want := read(t, append(append([]string(nil), recs[:i]...), string(pl))...)
			if !reflect.DeepEqual(entries(got), entries(want)) {
				t.Errorf("record %d pending: the fork's session differs from the file's", i+1)
			}
		}
		c.Add(&rec)
	}
	whole := read(t, recs...)
	if got := c.d.Finish(); !reflect.DeepEqual(entries(got), entries(whole)) || got.Title != whole.Title {
		t.Error("after the forks, the conversation differs from the file")
	}
}

// entries lists the main thread's entries by value, for comparing.
func entries(s *session.Session) []session.Entry {
	var out []session.Entry
	for _, e := range s.Main().Entries {
		out = append(out, *e)
	}
	return out
}

// checkLayout checks that layout says where body's messages stand: the
// array, and its elements, each a JSON object, in order inside it.
func checkLayout(t *testing.T, body string, layout *Layout) {
	t.Helper()
	if layout == nil {
		t.Fatal("no layout")
	}
	a := layout.Array
	if body[a.At] != '[' || body[a.End-1] != ']' {
		t.Fatalf("the array is at %v: %.20q", a, body[a.At:])
	}
	prev := a.At
	for k, e := range layout.Elements {
		if e.At <= prev || e.End >= a.End || body[e.At] != '{' || body[e.End-1] != '}' || !json.Valid([]byte(body[e.At:e.End])) {
			t.Fatalf("element %d is at %v: %.20q", k, e, body[e.At:])
		}
		prev = e.End
	}
}
