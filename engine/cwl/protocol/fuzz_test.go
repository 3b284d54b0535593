package protocol

import (
	"bytes"
	"encoding/json"
	"testing"

	"ctxscope/engine/cwl/vectors"
	"ctxscope/engine/ingest/pi"
	"ctxscope/engine/session"
)

func seedVectors(f *testing.F) *vectors.File {
	v, err := vectors.Load(vectorsPath)
	if err != nil {
		f.Fatal(err)
	}
	return v
}

// FuzzExecute feeds arbitrary delimiter arguments to the tool, seeded with
// every call of V10. It must answer, never panic.
func FuzzExecute(f *testing.F) {
	for _, v := range seedVectors(f).Vectors {
		msgs, err := v.Messages()
		if err != nil {
			f.Fatal(err)
		}
		for _, m := range msgs {
			for _, c := range m.ToolCalls() {
				f.Add([]byte(c.Arguments), true)
			}
		}
	}
	f.Fuzz(func(t *testing.T, args []byte, open bool) {
		var st State
		if open {
			st.Record(ChunkEvent{Action: "start", Chunk: Chunk{Name: "e1", Type: KindExpl}})
		}
		a := st.Execute(json.RawMessage(args))
		if a.Text == "" {
			t.Fatal("empty answer")
		}
		if !a.IsError && (a.Event == nil || a.Event.Chunk.Name == "") {
			t.Fatalf("success without a named event: %+v", a)
		}
	})
}

// FuzzValidate imports arbitrary message arrays (seeded with the vector
// histories) and validates their delimiter protocol.
func FuzzValidate(f *testing.F) {
	for _, v := range seedVectors(f).Vectors {
		f.Add(v.HistoryJSON())
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := pi.Importer{}.Import(bytes.NewReader(data), "fuzz.json")
		if err != nil || s.Main() == nil {
			return
		}
		var msgs []*session.Message
		for _, e := range s.Main().Entries {
			if e.Message != nil {
				msgs = append(msgs, e.Message)
			}
		}
		for _, fd := range Validate(msgs) {
			if fd.Text == "" || fd.Message < 0 || fd.Message >= len(msgs) {
				t.Fatalf("bad finding %+v", fd)
			}
		}
	})
}
