// Package locomo reads the LoCoMo long-term conversation benchmark
// (locomo10.json): conversations split into dated sessions of turns, and
// question-answer items with the dialogue ids of their evidence.
package locomo

import (
	"encoding/json"
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"

	"ctxscope/engine/inputfile"
	"ctxscope/engine/memory"
)

// Categories of LoCoMo questions, by their ids in the data.
const (
	MultiHop    = 1
	Temporal    = 2
	OpenDomain  = 3
	SingleHop   = 4
	Adversarial = 5
)

// CategoryName returns the paper's column name for a category id.
func CategoryName(c int) string {
	switch c {
	case MultiHop:
		return "multi-hop"
	case Temporal:
		return "temporal"
	case OpenDomain:
		return "open-domain"
	case SingleHop:
		return "single-hop"
	case Adversarial:
		return "adversarial"
	}
	return "category-" + strconv.Itoa(c)
}

// Conversation is one LoCoMo sample.
type Conversation struct {
	ID       string     // sample_id, such as "conv-26"
	Index    int        // position in the file, from 0
	Speakers [2]string  // speaker_a, speaker_b
	Sessions []Session  // sessions that have turns, in order
	QA       []Question // questions in file order
}

// Session is one dated session of a conversation.
type Session struct {
	N     int       // the session number in the key "session_N"
	Stamp string    // the source's date_time, such as "1:56 pm on 8 May, 2023"
	Time  time.Time // Stamp parsed; zero when it does not parse
	Turns []Turn
}

// Turn is one utterance.
type Turn struct {
	DiaID   string // "D<session>:<turn>"
	Speaker string
	Text    string
	ImgURL  string // present on image turns
	Caption string // BLIP caption of the image, when recorded
}

// Question is one QA item.
type Question struct {
	Question    string
	Answer      string   // "" for most adversarial items; ints are rendered as text
	Adversarial string   // adversarial_answer, category 5 only
	Evidence    []string // dialogue ids, malformed entries split and cleaned
	Category    int
}

// StampLayout is the layout of LoCoMo session date_time values.
const StampLayout = "3:04 pm on 2 January, 2006"

// ParseStamp parses a session date_time such as "1:56 pm on 8 May, 2023".
func ParseStamp(s string) (time.Time, error) {
	return time.Parse(StampLayout, strings.TrimSpace(s))
}

// ReadFile reads a locomo10.json-shaped file.
func ReadFile(path string) ([]*Conversation, error) {
	data, err := inputfile.ReadAll(path, 0)
	if err != nil {
		return nil, err
	}
	return Parse(data, path)
}

type rawSample struct {
	SampleID     string                     `json:"sample_id"`
	Conversation map[string]json.RawMessage `json:"conversation"`
	QA           []rawQA                    `json:"qa"`
}

type rawQA struct {
	Question    string          `json:"question"`
	Answer      json.RawMessage `json:"answer"`
	Evidence    []string        `json:"evidence"`
	Category    int             `json:"category"`
	Adversarial string          `json:"adversarial_answer"`
}

type rawTurn struct {
	Speaker string          `json:"speaker"`
	DiaID   string          `json:"dia_id"`
	Text    string          `json:"text"`
	ImgURL  json.RawMessage `json:"img_url"`
	Caption string          `json:"blip_caption"`
}

// Parse decodes LoCoMo data; name labels errors.
func Parse(data []byte, name string) ([]*Conversation, error) {
	var raw []rawSample
	if err := json.Unmarshal(data, &raw); err != nil {
		return nil, memory.JSONError(name, data, err)
	}
	out := make([]*Conversation, 0, len(raw))
	for i, r := range raw {
		c, err := convert(i, r)
		if err != nil {
			return nil, fmt.Errorf("%s: sample %d (%s): %w", name, i, r.SampleID, err)
		}
		out = append(out, c)
	}
	return out, nil
}

var sessionKey = regexp.MustCompile(`^session_(\d+)$`)

func convert(idx int, r rawSample) (*Conversation, error) {
	c := &Conversation{ID: r.SampleID, Index: idx}
	if err := str(r.Conversation["speaker_a"], &c.Speakers[0]); err != nil {
		return nil, fmt.Errorf("speaker_a: %w", err)
	}
	if err := str(r.Conversation["speaker_b"], &c.Speakers[1]); err != nil {
		return nil, fmt.Errorf("speaker_b: %w", err)
	}
	for key, val := range r.Conversation {
		m := sessionKey.FindStringSubmatch(key)
		if m == nil {
			continue
		}
		n, err := strconv.Atoi(m[1])
		if err != nil {
			return nil, fmt.Errorf("%s: bad session number", key)
		}
		s, err := session(n, val, r.Conversation[key+"_date_time"])
		if err != nil {
			return nil, fmt.Errorf("%s: %w", key, err)
		}
		if len(s.Turns) > 0 {
			c.Sessions = append(c.Sessions, s)
		}
	}
	sort.Slice(c.Sessions, func(i, j int) bool { return c.Sessions[i].N < c.Sessions[j].N })
	for i, q := range r.QA {
		qq, err := question(q)
		if err != nil {
			return nil, fmt.Errorf("qa %d: %w", i, err)
		}
		c.QA = append(c.QA, qq)
	}
	return c, nil
}

func session(n int, turns, stamp json.RawMessage) (Session, error) {
	s := Session{N: n}
	if stamp != nil {
		if err := str(stamp, &s.Stamp); err != nil {
			return s, fmt.Errorf("date_time: %w", err)
		}
		s.Time, _ = ParseStamp(s.Stamp) // an unparsable stamp leaves the time unknown
	}
	var raw []rawTurn
	if err := json.Unmarshal(turns, &raw); err != nil {
		return s, fmt.Errorf("turns: %w", err)
	}
	for i, t := range raw {
		if t.DiaID == "" {
			return s, fmt.Errorf("turn %d: missing dia_id", i)
		}
		s.Turns = append(s.Turns, Turn{DiaID: t.DiaID, Speaker: t.Speaker, Text: t.Text, ImgURL: urlOf(t.ImgURL), Caption: t.Caption})
	}
	return s, nil
}

// urlOf returns an img_url value, which the data holds as a string or a
// list of strings.
func urlOf(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var l []string
	if json.Unmarshal(raw, &l) == nil && len(l) > 0 {
		return l[0]
	}
	return ""
}

func str(raw json.RawMessage, dst *string) error {
	if raw == nil {
		return fmt.Errorf("missing")
	}
	return json.Unmarshal(raw, dst)
}

func question(q rawQA) (Question, error) {
	out := Question{Question: q.Question, Category: q.Category, Adversarial: q.Adversarial}
	if len(q.Answer) > 0 && string(q.Answer) != "null" {
		var s string
		if json.Unmarshal(q.Answer, &s) == nil {
			out.Answer = s
		} else {
			var n json.Number
			if err := json.Unmarshal(q.Answer, &n); err != nil {
				return out, fmt.Errorf("answer is neither text nor a number: %s", q.Answer)
			}
			out.Answer = n.String()
		}
	}
	out.Evidence = CleanEvidence(q.Evidence)
	return out, nil
}

var diaID = regexp.MustCompile(`D\d+:\d+`)

// CleanEvidence extracts well-formed dialogue ids from evidence strings,
// splitting malformed entries such as "D8:6; D9:17", and drops duplicates.
func CleanEvidence(ev []string) []string {
	var out []string
	seen := map[string]bool{}
	for _, e := range ev {
		for _, id := range diaID.FindAllString(e, -1) {
			if !seen[id] {
				seen[id] = true
				out = append(out, id)
			}
		}
	}
	return out
}
