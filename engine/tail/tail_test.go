package tail

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func header(id string) string {
	return `{"type":"session","version":3,"id":"` + id + `","timestamp":"2026-01-01T00:00:00Z","cwd":"/w"}` + "\n"
}

func record(n int) string {
	return fmt.Sprintf(`{"type":"message","id":"m%d","parentId":"m%d","timestamp":"2026-01-01T00:00:01Z","message":{"role":"user","content":"record %d","timestamp":1}}`+"\n", n, n-1, n)
}

// texts returns the record texts of entry events, and counts resets.
func texts(evs []Event) (out []string, resets int) {
	for _, ev := range evs {
		switch ev.Kind {
		case EventEntry:
			out = append(out, ev.Entry.Message.Blocks[0].Text)
		case EventReset:
			resets++
		case EventDiagnostic, EventError:
			out = append(out, "problem: "+fmt.Sprint(ev.Diagnostic, ev.Err))
		}
	}
	return out, resets
}

func appendFile(t *testing.T, path, s string) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString(s); err != nil {
		t.Fatal(err)
	}
	f.Close()
}

// TestReaderBursts writes a session in random bursts cut anywhere,
// half lines included, polling between bursts, then truncates the file
// and writes a new session: every record arrives once, in order, with one
// reset between the two sessions.
func TestReaderBursts(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.jsonl")
	r := Open(path, Position{}, 0)
	defer r.Close()
	if evs, err := r.Poll(); err != nil || len(evs) != 0 {
		t.Fatalf("before the file exists: %v, %v", evs, err)
	}
	var want, got []string
	rng := rand.New(rand.NewPCG(7, 7))
	write := func(text string) {
		for len(text) > 0 {
			n := 1 + rng.IntN(min(len(text), 300))
			appendFile(t, path, text[:n])
			text = text[n:]
			evs, err := r.Poll()
			if err != nil {
				t.Fatal(err)
			}
			g, resets := texts(evs)
			if resets > 0 {
				got = append(got, "reset")
			}
			got = append(got, g...)
		}
	}
	body := header("one")
	for i := 1; i <= 200; i++ {
		body += record(i)
		want = append(want, fmt.Sprintf("record %d", i))
	}
	write(body)
	if err := os.Truncate(path, 0); err != nil {
		t.Fatal(err)
	}
	want = append(want, "reset")
	body = header("two")
	for i := 201; i <= 260; i++ {
		body += record(i)
		want = append(want, fmt.Sprintf("record %d", i))
	}
	write(body)
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("got %d events:\n%v\nwant:\n%v", len(got), got, want)
	}
	if p := r.Position(); p.Line != 61 || p.Offset != int64(len(body)) {
		t.Errorf("position %+v, want line 61 offset %d", p, len(body))
	}
}

// TestReaderResume reopens a file at a saved position: nothing before it
// is read again.
func TestReaderResume(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.jsonl")
	appendFile(t, path, header("s")+record(1)+record(2))
	r := Open(path, Position{}, 0)
	if _, err := r.Poll(); err != nil {
		t.Fatal(err)
	}
	pos := r.Position()
	r.Close()
	appendFile(t, path, record(3))
	r = Open(path, pos, 0)
	defer r.Close()
	evs, err := r.Poll()
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := texts(evs); strings.Join(got, "|") != "record 3" {
		t.Errorf("after resuming: %v", got)
	}
	if evs[len(evs)-1].Entry.Line != 4 {
		t.Errorf("line %d, want 4", evs[len(evs)-1].Entry.Line)
	}
}

// TestReaderRotation renames the file away and writes a new one under the
// same name: the old file's last lines are read, then the new file.
func TestReaderRotation(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "s.jsonl")
	appendFile(t, path, header("old")+record(1))
	r := Open(path, Position{}, 0)
	defer r.Close()
	evs, _ := r.Poll()
	appendFile(t, path, record(2)+`{"type":"message","id":"m3"`) // ends in a half line
	if err := os.Rename(path, path+".1"); err != nil {
		t.Fatal(err)
	}
	more, _ := r.Poll()
	evs = append(evs, more...)
	appendFile(t, path, header("new")+record(10))
	more, _ = r.Poll()
	evs = append(evs, more...)
	got, resets := texts(evs)
	if strings.Join(got, "|") != "record 1|record 2|record 10" || resets != 1 {
		t.Errorf("got %v with %d resets", got, resets)
	}
}

// TestWatcherLive follows a directory while a writer goroutine appends to
// a session in bursts (half lines included), truncates it, and starts a
// second session file. The backstop poll is an hour, so delivery rests on
// file-system events.
func TestWatcherLive(t *testing.T) {
	dir := t.TempDir()
	w, err := New(Options{Poll: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	if err := w.Add(dir); err != nil {
		t.Fatal(err)
	}
	a, b := filepath.Join(dir, "a.jsonl"), filepath.Join(dir, "sub", "b.jsonl")
	seen := make(chan int, 1000) // records received so far, for the writer to wait on
	go func() {
		appendFile(t, a, header("a"))
		for i := 1; i <= 40; i++ {
			line := record(i)
			appendFile(t, a, line[:len(line)/2])
			time.Sleep(time.Millisecond)
			appendFile(t, a, line[len(line)/2:])
		}
		waitFor(seen, 40)
		os.Truncate(a, 0)
		appendFile(t, a, header("a2")+record(41)+record(42))
		os.Mkdir(filepath.Dir(b), 0o755)
		appendFile(t, b, header("b")+record(100))
	}()
	got := map[string][]string{}
	resets, n := 0, 0
	deadline := time.After(20 * time.Second) // a hang guard, not a timing check
	for n < 43 {
		select {
		case ev := <-w.Events():
			switch ev.Kind {
			case EventEntry:
				got[filepath.Base(ev.Path)] = append(got[filepath.Base(ev.Path)], ev.Entry.Message.Blocks[0].Text)
				n++
				seen <- n
			case EventReset:
				resets++
			case EventError, EventDiagnostic:
				t.Errorf("unexpected %s event: %v %v", ev.Kind, ev.Err, ev.Diagnostic)
			}
		case <-deadline:
			t.Fatalf("only %d of 43 records arrived: %v", n, got)
		}
	}
	var want []string
	for i := 1; i <= 42; i++ {
		want = append(want, fmt.Sprintf("record %d", i))
	}
	if strings.Join(got["a.jsonl"], "|") != strings.Join(want, "|") || resets != 1 {
		t.Errorf("a.jsonl: %v, %d resets", got["a.jsonl"], resets)
	}
	if strings.Join(got["b.jsonl"], "|") != "record 100" {
		t.Errorf("b.jsonl: %v", got["b.jsonl"])
	}
}

func waitFor(seen <-chan int, n int) {
	for got := range seen {
		if got >= n {
			return
		}
	}
}

// TestFollowWhole follows a Gemini CLI chat, a JSON document the agent
// rewrites whole on each message: each rewrite that adds messages reports
// only the new entries, and one that drops messages starts over.
func TestFollowWhole(t *testing.T) {
	path := filepath.Join(t.TempDir(), "session-1.json")
	msg := func(id, typ, text string) string {
		return fmt.Sprintf(`{"id":%q,"timestamp":"2026-06-05T04:59:42Z","type":%q,"content":[{"text":%q}]}`, id, typ, text)
	}
	chat := func(msgs ...string) {
		doc := `{"sessionId":"s1","projectHash":"p","startTime":"2026-06-05T04:59:39Z","messages":[` + strings.Join(msgs, ",\n") + "]}\n"
		if err := os.WriteFile(path, []byte(doc), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	kinds := func(evs []Event) string {
		var ks []string
		for _, e := range evs {
			ks = append(ks, string(e.Kind))
		}
		return strings.Join(ks, " ")
	}
	r := Open(path, Position{}, 0)
	chat(msg("u1", "user", "hello"))
	evs, err := r.Poll()
	if err != nil || kinds(evs) != "opened entry" || evs[0].Session.ID != "s1" {
		t.Fatalf("first poll: %s (%v)", kinds(evs), err)
	}
	if evs, _ := r.Poll(); len(evs) != 0 {
		t.Errorf("unchanged file: %s, want nothing", kinds(evs))
	}
	chat(msg("u1", "user", "hello"), msg("g1", "gemini", "hi there"))
	evs, _ = r.Poll()
	if kinds(evs) != "entry" || evs[0].Entry.Message.Blocks[0].Text != "hi there" {
		t.Errorf("after a message: %s, want the one new entry", kinds(evs))
	}
	chat(msg("u2", "user", "again"))
	evs, _ = r.Poll()
	if kinds(evs) != "reset opened entry" {
		t.Errorf("after a rewrite: %s, want reset opened entry", kinds(evs))
	}
	if r.Session() == nil || len(r.Session().Main().Entries) != 1 {
		t.Errorf("Session() after the rewrite: %+v", r.Session())
	}
}

func TestDiscover(t *testing.T) {
	home := t.TempDir()
	for _, d := range []string{".claude/projects", ".pi/agent/sessions", ".gemini/tmp", "elsewhere", ".local/share/opencode"} {
		if err := os.MkdirAll(filepath.Join(home, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	appendFile(t, filepath.Join(home, ".local/share/opencode/opencode.db"), "")
	got := Discover(home)
	want := []string{filepath.Join(home, ".claude/projects"), filepath.Join(home, ".pi/agent/sessions"),
		filepath.Join(home, ".gemini/tmp"), filepath.Join(home, ".local/share/opencode/opencode.db")}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("Discover = %v, want %v", got, want)
	}
	if Discover("") != nil {
		t.Error("an empty home must find nothing")
	}
}

// TestReaderClaudeMerge follows a Claude Code transcript whose response is
// written over two lines: the second line arrives as a merged update of
// the first entry, and the copy sent earlier is not changed by it.
func TestReaderClaudeMerge(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.jsonl")
	line := func(uuid, parent, block string, out int) string {
		return fmt.Sprintf(`{"type":"assistant","uuid":"%s","parentUuid":"%s","sessionId":"s","message":{"id":"msg1","role":"assistant","content":[%s],"usage":{"input_tokens":1,"output_tokens":%d}}}`+"\n", uuid, parent, block, out)
	}
	appendFile(t, path, `{"type":"user","uuid":"u","parentUuid":null,"sessionId":"s","message":{"role":"user","content":"go"}}`+"\n"+
		line("a1", "u", `{"type":"text","text":"thinking about it"}`, 1))
	r := Open(path, Position{}, 0)
	defer r.Close()
	first, err := r.Poll()
	if err != nil {
		t.Fatal(err)
	}
	appendFile(t, path, line("a2", "a1", `{"type":"tool_use","id":"t","name":"Bash","input":{}}`, 9))
	second, err := r.Poll()
	if err != nil {
		t.Fatal(err)
	}
	early := first[len(first)-1].Entry
	if len(second) != 1 || !second[0].Merged || second[0].Entry.ID != early.ID {
		t.Fatalf("second poll %+v", second)
	}
	if m := second[0].Entry.Message; len(m.Blocks) != 2 || m.Usage.Output != 9 {
		t.Errorf("merged entry: %d blocks, output %d", len(m.Blocks), m.Usage.Output)
	}
	if m := early.Message; len(m.Blocks) != 1 || m.Usage.Output != 1 {
		t.Errorf("the earlier copy changed: %d blocks, output %d", len(m.Blocks), m.Usage.Output)
	}
}

// TestReaderChunks reads a file larger than one poll's chunk: every record
// arrives once, over several polls.
func TestReaderChunks(t *testing.T) {
	path := filepath.Join(t.TempDir(), "big.jsonl")
	var sb strings.Builder
	sb.WriteString(header("big"))
	const n = 60000
	for i := 1; i <= n; i++ {
		sb.WriteString(record(i))
	}
	if sb.Len() < 2*pollChunk {
		t.Fatalf("test file of %d bytes is too small", sb.Len())
	}
	appendFile(t, path, sb.String())
	r := Open(path, Position{}, 0)
	defer r.Close()
	polls, got := 0, 0
	for {
		evs, err := r.Poll()
		if err != nil {
			t.Fatal(err)
		}
		polls++
		for _, ev := range evs {
			if ev.Kind == EventEntry {
				got++
				if want := fmt.Sprintf("record %d", got); ev.Entry.Message.Blocks[0].Text != want {
					t.Fatalf("entry %q, want %q", ev.Entry.Message.Blocks[0].Text, want)
				}
			}
		}
		if !r.More() {
			break
		}
	}
	if got != n || polls < 3 {
		t.Errorf("%d entries in %d polls, want %d in at least 3", got, polls, n)
	}
	if s := r.Session(); len(s.Main().Entries) != 0 {
		t.Errorf("the reader kept %d entries", len(s.Main().Entries))
	}
}

// TestReaderTooLong skips a line over the record limit, whether it arrives
// whole or in pieces, and reads on.
func TestReaderTooLong(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.jsonl")
	long := record(2)
	long = long[:len(long)-1] + strings.Repeat(" ", 600) + "\n"
	r := Open(path, Position{}, 500)
	defer r.Close()
	var evs []Event
	for _, part := range []string{header("s") + record(1) + long, long[:300], long[300:] + record(3)} {
		appendFile(t, path, part)
		more, err := r.Poll()
		if err != nil {
			t.Fatal(err)
		}
		evs = append(evs, more...)
	}
	got, _ := texts(evs)
	want := "record 1|problem: " // then the two skipped lines, then record 3
	if len(got) != 4 || !strings.HasPrefix(strings.Join(got, "|"), want) || got[3] != "record 3" {
		t.Errorf("events %q", got)
	}
	if p := r.Position(); p.Line != 5 {
		t.Errorf("position %+v, want line 5", p)
	}
}

// TestEveryKnownPlaceNamesItsAgent keeps Agents in step with KnownDirs and
// KnownFiles.
func TestEveryKnownPlaceNamesItsAgent(t *testing.T) {
	for _, p := range append(append([]string{}, KnownDirs...), KnownFiles...) {
		if Agents[p] == "" {
			t.Errorf("%s names no agent", p)
		}
	}
	if len(Agents) != len(KnownDirs)+len(KnownFiles) {
		t.Errorf("%d agents for %d places", len(Agents), len(KnownDirs)+len(KnownFiles))
	}
}
