package memstore

import (
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"
	"sort"
	"strconv"
	"time"

	"ctxscope/engine/memory"
	"ctxscope/engine/memory/cluster"
	"ctxscope/engine/memory/kg"
	"ctxscope/engine/memory/temporal"
)

// formatVersion is the version of the metadata layout below.
const formatVersion = 1

// setMeta is a memory set's metadata column.
type setMeta struct {
	Version  int             `json:"version"`
	Speakers []string        `json:"speakers"`
	Source   string          `json:"source"`
	From     memory.Origin   `json:"from"`
	Common   string          `json:"common,omitempty"` // float32s, little-endian, base64
	Pending  []string        `json:"pending,omitempty"`
	Routes   []cluster.Route `json:"routes,omitempty"`
	Merges   []kg.Merge      `json:"merges,omitempty"`
}

// entityMeta keeps an entity's aliases as written (the name index keeps
// them lower-cased and only where no other entity holds them).
type entityMeta struct {
	Aliases []string `json:"aliases"` // null and [] both round-trip
	Type    string   `json:"type,omitempty"`
}

// relationMeta keeps what the relation columns hold only as text.
type relationMeta struct {
	Time     *temporal.Value `json:"value,omitempty"`
	TimeText string          `json:"timeText,omitempty"`
	Passages []string        `json:"passages,omitempty"` // when more than one
}

// clusterMeta keeps the experience layer's working state of a cluster.
type clusterMeta struct {
	Label   string   `json:"label,omitempty"`
	Members []string `json:"members"`
	Buffer  []string `json:"buffer,omitempty"`
	Center  string   `json:"center,omitempty"` // float32s, base64
}

func encode(m *memory.Memory) (MemoryData, error) {
	var d MemoryData
	meta := setMeta{Version: formatVersion, Speakers: m.Speakers, Source: m.Source, From: m.From, Common: floats(m.Common)}
	if m.Experience != nil {
		meta.Pending, meta.Routes = m.Experience.Pending, m.Experience.Routes
	}
	snap := kg.Snapshot{}
	if m.Graph != nil {
		snap = m.Graph.Snapshot()
	}
	meta.Merges = snap.Merges
	var err error
	if d.Metadata, err = json.Marshal(meta); err != nil {
		return d, err
	}
	stamps := map[string]string{}
	for _, p := range m.Passages {
		stamps[p.ID] = p.Stamp
		d.Passages = append(d.Passages, Passage{ID: p.ID, Text: p.Text, Speaker: p.Speaker, Timestamp: p.Stamp,
			QAID: p.ID, Session: session(p.Session), Time: timeText(p.Time)})
	}
	for _, e := range snap.Entities {
		d.Entities = append(d.Entities, Entity{ID: e.ID, Name: e.Name, Source: string(e.Origin), Aliases: e.Aliases,
			Metadata: mustJSON(entityMeta{Aliases: e.Aliases, Type: e.Type})})
	}
	for _, r := range snap.Relations {
		d.Relations = append(d.Relations, relation(r))
	}
	ps := make([]string, 0, len(snap.Contains))
	for p := range snap.Contains {
		ps = append(ps, p)
	}
	sort.Strings(ps)
	for _, p := range ps {
		for i, e := range snap.Contains[p] {
			d.Contains = append(d.Contains, Contains{Passage: p, Entity: e, Timestamp: stamps[p], Position: i})
		}
	}
	if m.Experience != nil {
		for _, c := range m.Experience.Clusters {
			d.Clusters = append(d.Clusters, Cluster{ID: c.ID, CenterText: c.CenterText, CenterIDs: []string{},
				Metadata: mustJSON(clusterMeta{Label: c.Label, Members: c.Members, Buffer: c.Buffer, Center: floats(c.Center)})})
			for _, it := range c.Items {
				d.Experiences = append(d.Experiences, Experience{ID: it.ID, Cluster: c.ID, Type: string(it.Type),
					Content: it.Content, SourceQAIDs: it.Sources, Metadata: []byte("{}")})
			}
		}
	}
	return d, nil
}

func relation(r kg.Relation) Relation {
	out := Relation{ID: r.ID, Source: r.Subject, Target: r.Object, Type: r.Predicate, Time: r.TimeString(),
		Condition: r.Condition, Session: session(r.Session), Origin: string(r.Origin)}
	var meta relationMeta
	if !r.Time.IsZero() {
		v := r.Time
		meta.Time = &v
	}
	meta.TimeText = r.TimeText
	if len(r.Passages) > 0 {
		out.QAID, out.PassageID = r.Passages[0], r.Passages[0]
	}
	if len(r.Passages) > 1 {
		meta.Passages = r.Passages
	}
	out.Metadata = mustJSON(meta)
	return out
}

func decode(id string, d MemoryData) (*memory.Memory, error) {
	var meta setMeta
	if err := json.Unmarshal(d.Metadata, &meta); err != nil {
		return nil, fmt.Errorf("set metadata: %w", err)
	}
	if meta.Version != formatVersion {
		return nil, fmt.Errorf("memory format version %d, want %d", meta.Version, formatVersion)
	}
	m := &memory.Memory{ID: id, Speakers: meta.Speakers, Source: meta.Source, From: meta.From, Experience: cluster.NewLayer()}
	var err error
	if m.Common, err = unfloats(meta.Common); err != nil {
		return nil, err
	}
	for _, p := range d.Passages {
		mp, err := passage(p)
		if err != nil {
			return nil, err
		}
		m.Passages = append(m.Passages, mp)
	}
	snap := kg.Snapshot{Contains: map[string][]string{}, Merges: meta.Merges}
	for _, e := range d.Entities {
		var em entityMeta
		if err := json.Unmarshal(e.Metadata, &em); err != nil {
			return nil, fmt.Errorf("entity %s: %w", e.ID, err)
		}
		snap.Entities = append(snap.Entities, kg.Entity{ID: e.ID, Name: e.Name, Aliases: em.Aliases, Origin: kg.Origin(e.Source), Type: em.Type})
	}
	for _, r := range d.Relations {
		kr, err := unrelation(r)
		if err != nil {
			return nil, err
		}
		snap.Relations = append(snap.Relations, kr)
	}
	for _, c := range d.Contains {
		snap.Contains[c.Passage] = append(snap.Contains[c.Passage], c.Entity)
	}
	if m.Graph, err = kg.FromSnapshot(snap); err != nil {
		return nil, err
	}
	if err := layer(m.Experience, d, meta); err != nil {
		return nil, err
	}
	return m, nil
}

func passage(p Passage) (memory.Passage, error) {
	out := memory.Passage{ID: p.ID, Speaker: p.Speaker, Text: p.Text, Stamp: p.Timestamp}
	if p.Session != "" {
		n, err := strconv.Atoi(p.Session)
		if err != nil {
			return out, fmt.Errorf("passage %s: session %q", p.ID, p.Session)
		}
		out.Session = n
	}
	if p.Time != "" {
		t, err := time.Parse(time.RFC3339Nano, p.Time)
		if err != nil {
			return out, fmt.Errorf("passage %s: %w", p.ID, err)
		}
		out.Time = t
	}
	return out, nil
}

func unrelation(r Relation) (kg.Relation, error) {
	var meta relationMeta
	if err := json.Unmarshal(r.Metadata, &meta); err != nil {
		return kg.Relation{}, fmt.Errorf("relation %s: %w", r.ID, err)
	}
	out := kg.Relation{ID: r.ID, Subject: r.Source, Predicate: r.Type, Object: r.Target, TimeText: meta.TimeText,
		Condition: r.Condition, Origin: kg.Origin(r.Origin), Passages: meta.Passages}
	if meta.Time != nil {
		out.Time = *meta.Time
	}
	if out.Passages == nil && r.PassageID != "" {
		out.Passages = []string{r.PassageID}
	}
	if r.Session != "" {
		n, err := strconv.Atoi(r.Session)
		if err != nil {
			return out, fmt.Errorf("relation %s: session %q", r.ID, r.Session)
		}
		out.Session = n
	}
	return out, nil
}

func layer(l *cluster.Layer, d MemoryData, meta setMeta) error {
	l.Pending, l.Routes = meta.Pending, meta.Routes
	byID := map[string]*cluster.Cluster{}
	for _, c := range d.Clusters {
		var cm clusterMeta
		if err := json.Unmarshal(c.Metadata, &cm); err != nil {
			return fmt.Errorf("cluster %s: %w", c.ID, err)
		}
		center, err := unfloats(cm.Center)
		if err != nil {
			return fmt.Errorf("cluster %s: %w", c.ID, err)
		}
		kc := &cluster.Cluster{ID: c.ID, Center: center, CenterText: c.CenterText, Label: cm.Label, Members: cm.Members, Buffer: cm.Buffer}
		byID[c.ID] = kc
		l.Clusters = append(l.Clusters, kc)
	}
	for _, x := range d.Experiences {
		c, ok := byID[x.Cluster]
		if !ok {
			return fmt.Errorf("experience %s: no cluster %q", x.ID, x.Cluster)
		}
		c.Items = append(c.Items, cluster.Experience{ID: x.ID, Type: cluster.Type(x.Type), Content: x.Content, Sources: x.SourceQAIDs, Cluster: x.Cluster})
	}
	return nil
}

func session(n int) string {
	if n == 0 {
		return ""
	}
	return strconv.Itoa(n)
}

func timeText(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.Format(time.RFC3339Nano)
}

func mustJSON(v any) json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err) // only plain structs of strings and numbers are encoded
	}
	return b
}

// floats encodes a vector compactly: 4 bytes per component.
func floats(v []float32) string {
	if v == nil {
		return ""
	}
	b := make([]byte, 4*len(v))
	for i, f := range v {
		binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(f))
	}
	return base64.StdEncoding.EncodeToString(b)
}

func unfloats(s string) ([]float32, error) {
	if s == "" {
		return nil, nil
	}
	b, err := base64.StdEncoding.DecodeString(s)
	if err != nil || len(b)%4 != 0 {
		return nil, fmt.Errorf("bad vector encoding")
	}
	out := make([]float32, len(b)/4)
	for i := range out {
		out[i] = math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:]))
	}
	return out, nil
}
