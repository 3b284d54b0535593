package tokens

import (
	"math/rand"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/dlclark/regexp2"
	"github.com/pkoukk/tiktoken-go"
	tiktokenloader "github.com/pkoukk/tiktoken-go-loader"

	"ctxscope/engine/ingest"
	"ctxscope/engine/session"
)

// The reference: tiktoken-go, which runs the encodings' regular
// expressions with regexp2 and merges with tiktoken's quadratic loop.
var (
	referenceOnce sync.Once
	reference     map[string]*tiktoken.Tiktoken
)

func referenceEncoding(t testing.TB, name string) *tiktoken.Tiktoken {
	t.Helper()
	referenceOnce.Do(func() {
		tiktoken.SetBpeLoader(tiktokenloader.NewOfflineLoader())
		reference = map[string]*tiktoken.Tiktoken{}
		for _, enc := range []string{"o200k_base", "cl100k_base"} {
			e, err := tiktoken.GetEncoding(enc)
			if err != nil {
				panic(err)
			}
			reference[enc] = e
		}
	})
	return reference[name]
}

func counterFor(t testing.TB, enc string) *bpeCounter {
	t.Helper()
	c, err := BPE(enc)
	if err != nil {
		t.Fatal(err)
	}
	return c.(*bpeCounter)
}

var splitters = map[string]splitter{"o200k_base": splitO200k, "cl100k_base": splitCl100k}

// patterns are the expressions tiktoken-go compiles, copied from its
// encoding.go.
var patterns = map[string]string{
	"cl100k_base": `(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+`,
	"o200k_base": strings.Join([]string{
		`[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?`,
		`[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?`,
		`\p{N}{1,3}`, ` ?[^\s\p{L}\p{N}]+[\r\n/]*`, `\s*[\r\n]+`, `\s+(?!\S)`, `\s+`,
	}, "|"),
}

// regexpPieces splits s with the expression as tiktoken-go does.
func regexpPieces(t testing.TB, re *regexp2.Regexp, s string) []string {
	runes := []rune(s)
	var out []string
	m, err := re.FindRunesMatch(runes)
	for ; m != nil && err == nil; m, err = re.FindNextMatch(m) {
		out = append(out, string(runes[m.Index:m.Index+m.Length]))
	}
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// splitterPieces splits s with a hand-written splitter.
func splitterPieces(split splitter, s string) []string {
	s = runeSafe(s)
	var out []string
	for p := 0; p < len(s); {
		end := split(s, p)
		if end == p {
			_, n := utf8.DecodeRuneInString(s[p:])
			p += n
			continue
		}
		out = append(out, s[p:end])
		p = end
	}
	return out
}

// splitterSeeds are strings that exercise every alternative and the
// places where backtracking decides: contractions in both cases,
// prefixes before words, marks, title case, digits, slashes, every kind
// of whitespace before text and at the end.
var splitterSeeds = []string{
	"hello world", "  hello", "\thello", "I'm here, they'RE not; we'LL see 'd", "HELLOworld HELLO Hello hELLO",
	"x\u0301y \u0301abc ǅemo ʰlower ǈ", "12345 1,000,000 ٣٤٥٦", "a/b//c\n/d \r\n\r\n  \n x", "foo  \n\n  bar   ",
	"trailing   ", "\u3000\u3000word \u00a0nbsp\u0085", "'s 's' ''s", "can't won't I've", "ſ K İ 'S 'ſ",
	"func main() {\n\treturn x+1 // ok\n}\n", "emoji 👍🏽 done", "日本語のテキスト。", "ÀÉÎ õü ß", "$$$\n\n", "a\r\nb",
	"\xff\xfe invalid \xc3", "MixedCASE_snake_case camelCase", "--flag=value /usr/bin/env", "x'LL 'Ve",
}

func TestSplittersMatchRegexp(t *testing.T) {
	for enc, split := range splitters {
		re := regexp2.MustCompile(patterns[enc], regexp2.None)
		for _, s := range splitterSeeds {
			want := regexpPieces(t, re, runeSafe(s))
			got := splitterPieces(split, s)
			if strings.Join(got, "\x00") != strings.Join(want, "\x00") {
				t.Errorf("%s %q:\n got %q\nwant %q", enc, s, got, want)
			}
		}
	}
}

// FuzzSplittersMatchRegexp checks the hand-written splitters against the
// expressions on any input.
func FuzzSplittersMatchRegexp(f *testing.F) {
	for _, s := range splitterSeeds {
		f.Add(s)
	}
	res := map[string]*regexp2.Regexp{}
	for enc := range splitters {
		res[enc] = regexp2.MustCompile(patterns[enc], regexp2.None)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for enc, split := range splitters {
			want := regexpPieces(t, res[enc], runeSafe(s))
			got := splitterPieces(split, s)
			if strings.Join(got, "\x00") != strings.Join(want, "\x00") {
				t.Fatalf("%s %q:\n got %q\nwant %q", enc, s, got, want)
			}
		}
	})
}

// TestMergeStrategiesAgree checks the heap merge against tiktoken's rescan
// on pieces of every length up to twice the switch-over, drawn from an
// alphabet small enough that merges happen.
func TestMergeStrategiesAgree(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	alphabet := []string{"a", "b", "e", "t", "h", "0", "=", "+", "/", "é", "の"}
	for _, enc := range []string{"o200k_base", "cl100k_base"} {
		v := counterFor(t, enc).vocab
		var sc mergeScratch
		for i := 0; i < 2000; i++ {
			var b strings.Builder
			for b.Len() < 1+i%(2*smallPiece) {
				b.WriteString(alphabet[rng.Intn(len(alphabet))])
			}
			piece := b.String()
			if a, h := sc.rescan(piece, v), sc.heapMerge(piece, v); a != h {
				t.Fatalf("%s %q: rescan %d, heap %d", enc, piece, a, h)
			}
		}
	}
}

// sharedTexts returns every text the shared sessions hold (block text,
// thinking, tool arguments and results), each as the counters see it.
func sharedTexts(t testing.TB) []string {
	t.Helper()
	files, err := filepath.Glob("../../testdata/shared/sessions/*/*")
	if err != nil || len(files) == 0 {
		t.Fatalf("no shared sessions: %v", err)
	}
	var out []string
	for _, path := range files {
		if strings.HasSuffix(path, ".md") {
			continue
		}
		ss, err := ingest.ReadFileAll(path)
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		for _, s := range ss {
			for _, th := range s.Threads {
				for _, e := range th.Entries {
					if e.Message == nil {
						continue
					}
					for _, b := range e.Message.Blocks {
						out = appendTexts(out, &b)
					}
				}
			}
		}
	}
	return out
}

func appendTexts(out []string, b *session.Block) []string {
	for _, s := range []string{b.Text, b.ToolName, JSStringify(b.Arguments)} {
		if s != "" {
			out = append(out, s)
		}
	}
	for i := range b.Content {
		out = appendTexts(out, &b.Content[i])
	}
	return out
}

// TestBPEMatchesTiktokenGoOnSharedSessions counts every text of every
// shared session with both encodings and compares with tiktoken-go.
func TestBPEMatchesTiktokenGoOnSharedSessions(t *testing.T) {
	if testing.Short() {
		t.Skip("counts every shared session with tiktoken-go")
	}
	texts := sharedTexts(t)
	var bytes int
	for _, s := range texts {
		bytes += len(s)
	}
	for _, enc := range []string{"o200k_base", "cl100k_base"} {
		c, ref := counterFor(t, enc), referenceEncoding(t, enc)
		bad := 0
		for _, s := range texts {
			want := len(ref.EncodeOrdinary(s))
			if got := c.Count(s); got != want {
				if bad++; bad <= 5 {
					t.Errorf("%s: %d tokens, tiktoken-go %d, for %q", enc, got, want, s[:min(len(s), 120)])
				}
			}
		}
		if bad > 0 {
			t.Errorf("%s: %d of %d texts differ", enc, bad, len(texts))
		}
	}
	t.Logf("%d texts, %.1f MB, identical counts in both encodings", len(texts), float64(bytes)/(1<<20))
}

// FuzzBPEMatchesTiktokenGo compares whole counts on any input.
func FuzzBPEMatchesTiktokenGo(f *testing.F) {
	for _, s := range splitterSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, enc := range []string{"o200k_base", "cl100k_base"} {
			if got, want := counterFor(t, enc).Count(s), len(referenceEncoding(t, enc).EncodeOrdinary(s)); got != want {
				t.Fatalf("%s %q: %d tokens, tiktoken-go %d", enc, s, got, want)
			}
		}
	})
}

// TestLongRunsCountInLinearTime counts runs of one character and lines
// of base64, which tiktoken-go takes many minutes over at 1 MB. Growing
// each input fourfold, from 256 KB to 1 MB, must grow the CPU it takes
// (the process's CPU time, which other processes on a busy machine do not
// inflate) by well under the sixteenfold of a quadratic count (under tenfold,
// where a linear count measures four to six); no count
// may hang.
func TestLongRunsCountInLinearTime(t *testing.T) {
	rng := rand.New(rand.NewSource(7))
	const digits = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
	inputs := []struct {
		name string
		make func(n int) string
	}{
		{"one letter", func(n int) string { return strings.Repeat("a", n) }},
		{"base64 of zeros", func(n int) string { return strings.Repeat("A", n) }},
		{"one digit", func(n int) string { return strings.Repeat("7", n) }},
		{"one symbol", func(n int) string { return strings.Repeat("=", n) }},
		{"spaces", func(n int) string { return strings.Repeat(" ", n) + "x" }},
		{"base64", func(n int) string {
			b := make([]byte, n)
			for i := range b {
				b[i] = digits[rng.Intn(len(digits))]
			}
			return string(b)
		}},
	}
	const small, large = 256 << 10, 1 << 20
	for _, enc := range []string{"o200k_base", "cl100k_base"} {
		c := counterFor(t, enc)
		for _, in := range inputs {
			cpuSmall := cpuToCount(t, c, in.make(small))
			cpuLarge := cpuToCount(t, c, in.make(large))
			// Below 20 ms the clock's granularity decides the ratio; a
			// count that fast is linear enough.
			if ratio := cpuLarge / max(cpuSmall, 0.005); cpuLarge > 0.02 && ratio >= 10 {
				t.Errorf("%s %s: 4× the input took %.1f× the CPU (%.0f ms, then %.0f ms)", enc, in.name, ratio, cpuSmall*1000, cpuLarge*1000)
			}
			t.Logf("%s %s: 256 KB in %.0f ms, 1 MB in %.0f ms of CPU", enc, in.name, cpuSmall*1000, cpuLarge*1000)
		}
	}
}

// cpuToCount counts text and returns the CPU seconds it took, failing the
// test if counting does not end within a minute or gives an impossible
// count.
func cpuToCount(t *testing.T, c *bpeCounter, text string) float64 {
	t.Helper()
	done := make(chan int, 1)
	cpu0 := cpuSeconds()
	go func() { done <- c.Count(text) }()
	select {
	case n := <-done:
		if n <= 0 || n > len(text) {
			t.Errorf("%d tokens for %d bytes", n, len(text))
		}
		return cpuSeconds() - cpu0
	case <-time.After(time.Minute):
		t.Fatalf("counting %d bytes did not end within a minute", len(text))
		return 0
	}
}

// cpuSeconds returns the CPU time the process has used, user and system.
func cpuSeconds() float64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	tv := func(t syscall.Timeval) float64 { return float64(t.Sec) + float64(t.Usec)/1e6 }
	return tv(ru.Utime) + tv(ru.Stime)
}

// TestLongRunsCountLikeTiktokenGo checks the counts of long runs against
// tiktoken-go on lengths it can still do quickly.
func TestLongRunsCountLikeTiktokenGo(t *testing.T) {
	for _, enc := range []string{"o200k_base", "cl100k_base"} {
		c, ref := counterFor(t, enc), referenceEncoding(t, enc)
		for _, s := range []string{strings.Repeat("a", 3000), strings.Repeat("ab", 1500), strings.Repeat("=", 2000), strings.Repeat("7", 999), strings.Repeat(" ", 500) + "x"} {
			if got, want := c.Count(s), len(ref.EncodeOrdinary(s)); got != want {
				t.Errorf("%s %q…: %d tokens, tiktoken-go %d", enc, s[:10], got, want)
			}
		}
	}
}
