package embed

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
)

// loadGloVe loads the vector file made by scripts/fetch-embeddings.sh.
func loadGloVe(t testing.TB) *SIF {
	t.Helper()
	p, err := DefaultPath()
	if err != nil {
		if os.Getenv("CTXSCOPE_REQUIRE_EMBEDDINGS") != "" {
			t.Fatalf("%v (CTXSCOPE_REQUIRE_EMBEDDINGS is set)", err)
		}
		t.Skipf("%v", err)
	}
	s, err := LoadSIF(p)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestSIFSimilarity(t *testing.T) {
	s := loadGloVe(t)
	if s.Dim() != 100 || s.Vocabulary() < 100000 {
		t.Fatalf("dim %d, vocabulary %d", s.Dim(), s.Vocabulary())
	}
	q := s.Vector("When did Caroline go to the LGBTQ support group?")
	near := s.Vector("I went to a LGBTQ support group yesterday and it was so powerful.")
	far := s.Vector("The stock market fell sharply after the interest rate decision.")
	if Dot(q, near) <= Dot(q, far) {
		t.Errorf("cos(question, evidence) = %.3f <= cos(question, unrelated) = %.3f", Dot(q, near), Dot(q, far))
	}
	if d := Dot(near, near); d < 0.99 || d > 1.01 {
		t.Errorf("vector not unit length: %f", d)
	}
	if v := s.Vector("qqqzzzx"); Dot(v, v) != 0 {
		t.Error("unknown words gave a non-zero vector")
	}
}

func TestWriteReadRoundTrip(t *testing.T) {
	words := []string{"the", "cat", "dog"}
	vecs := [][]float32{{1, 0, 0}, {0, 1, 0.5}, {0, -1, 0.25}}
	var buf bytes.Buffer
	if err := WriteVectors(&buf, "tiny", words, vecs); err != nil {
		t.Fatal(err)
	}
	s, err := ReadSIF(bufio.NewReader(&buf))
	if err != nil {
		t.Fatal(err)
	}
	if s.Name() != "tiny" || s.Vocabulary() != 3 || s.Dim() != 3 {
		t.Fatalf("read %s %d %d", s.Name(), s.Vocabulary(), s.Dim())
	}
	if d := Dot(s.Vector("cat"), s.Vector("dog")); d > -0.5 {
		t.Errorf("cat·dog = %f, want about -0.6", d)
	}
}

// FuzzReadSIF feeds corrupted vector files to the reader: an error is
// fine, a panic or an allocation bomb is not. The seed holds the first
// real GloVe words and vectors when the cache exists.
func FuzzReadSIF(f *testing.F) {
	var buf bytes.Buffer
	WriteVectors(&buf, "seed", []string{"a", "b"}, [][]float32{{1, 2}, {3, 4}})
	f.Add(buf.Bytes())
	if p, err := DefaultPath(); err == nil {
		if s, err := LoadSIF(p); err == nil {
			words := make([]string, 20)
			vecs := make([][]float32, 20)
			for w, r := range s.words {
				if r < 20 {
					words[r] = w
					vecs[r] = s.Vector(w)
				}
			}
			var real bytes.Buffer
			WriteVectors(&real, s.Name(), words, vecs)
			f.Add(real.Bytes())
		}
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		s, err := ReadSIF(bufio.NewReader(bytes.NewReader(b)))
		if err == nil {
			s.Vector("a b the")
		}
	})
}

func TestClient(t *testing.T) {
	var gotAuth string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		gotAuth = r.Header.Get("Authorization")
		var req embedRequest
		json.NewDecoder(r.Body).Decode(&req)
		if r.URL.Path != "/v1/embeddings" || req.Model != "all-minilm" {
			http.Error(w, "bad request", 400)
			return
		}
		type item struct {
			Index     int       `json:"index"`
			Embedding []float32 `json:"embedding"`
		}
		var out struct {
			Data []item `json:"data"`
		}
		for i := len(req.Input) - 1; i >= 0; i-- { // out of order on purpose
			out.Data = append(out.Data, item{i, []float32{float32(len(req.Input[i])), 0}})
		}
		json.NewEncoder(w).Encode(out)
	}))
	defer srv.Close()
	c := &Client{BaseURL: srv.URL + "/v1/", Model: "all-minilm", Key: "sk-test", Batch: 2}
	vs, err := c.Embed(context.Background(), []string{"a", "bb", "ccc"})
	if err != nil {
		t.Fatal(err)
	}
	if len(vs) != 3 || vs[2][0] != 1 || c.Dim() != 2 || gotAuth != "Bearer sk-test" {
		t.Errorf("vectors %v dim %d auth %q", vs, c.Dim(), gotAuth)
	}
}

func TestClientRejectsBadReplies(t *testing.T) {
	tests := []struct{ name, reply, want string }{
		{"not json", `{"data": [`, "bad reply"},
		{"missing vector", `{"data":[{"index":0,"embedding":[1,2]}]}`, "lacks vector 1"},
		{"ragged", `{"data":[{"index":0,"embedding":[1,2]},{"index":1,"embedding":[1]}]}`, "dimensions"},
		{"bad index", `{"data":[{"index":5,"embedding":[1,2]}]}`, "bad or repeated index"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.Write([]byte(tt.reply))
			}))
			defer srv.Close()
			c := &Client{BaseURL: srv.URL, Model: "m"}
			_, err := c.Embed(context.Background(), []string{"a", "b"})
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("err = %v, want %q", err, tt.want)
			}
		})
	}
}

func TestCentered(t *testing.T) {
	s := loadGloVe(t)
	ctx := context.Background()
	few, err := FitCommon(ctx, s, []string{"one text", "another"})
	if err != nil || few != nil {
		t.Fatalf("FitCommon on two texts = %v, %v; want nil", few, err)
	}
	var texts []string
	for i := 0; i < MinCommonTexts; i++ {
		texts = append(texts, fmt.Sprintf("I went hiking with my dog on day %d and it was great", i))
	}
	texts = append(texts, "The stock market fell after the interest rate decision.")
	common, err := FitCommon(ctx, s, texts)
	if err != nil || len(common) != s.Dim() {
		t.Fatal(err)
	}
	c := Centered{Base: s, Common: common}
	vs, _ := c.Embed(ctx, []string{texts[0]})
	if d := Dot(vs[0], common); d > 1e-4 || d < -1e-4 {
		t.Errorf("centered vector keeps %f of the common component", d)
	}
	if !NeedsCentering(s) || NeedsCentering(&Client{}) {
		t.Error("NeedsCentering")
	}
}
