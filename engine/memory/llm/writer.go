package llm

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"ctxscope/engine/memory/cluster"
)

// Writer is the model-backed [cluster.Writer].
type Writer struct {
	Client *Client
	Logf   func(format string, args ...any)
}

func (w *Writer) reject(format string, args ...any) {
	if w.Logf != nil {
		w.Logf("experience: rejected: "+format, args...)
	}
}

func turns(units []cluster.Unit) string {
	var b strings.Builder
	for i, u := range units {
		fmt.Fprintf(&b, "[%d] %s: %s\n", i, u.Speaker, u.Text)
	}
	return b.String()
}

// Consistent asks whether the group is one topic; a failed call counts
// as consistent, as in the reference.
func (w *Writer) Consistent(ctx context.Context, units []cluster.Unit) (bool, string, error) {
	if len(units) == 1 {
		return true, clipRunes(units[0].Text, 50), nil
	}
	obj, err := w.Client.JSON(ctx, fmt.Sprintf(consistencyPrompt, turns(units)), 0.2, 1)
	if err != nil {
		w.reject("consistency: %v", err)
		return true, "", nil
	}
	var ok bool
	if err := json.Unmarshal(obj["is_consistent"], &ok); err != nil {
		w.reject("consistency: is_consistent is not a boolean")
		return true, "", nil
	}
	label, _ := str(obj, "label")
	return ok, label, nil
}

// CenterText asks for the cluster's theme.
func (w *Writer) CenterText(ctx context.Context, units []cluster.Unit) (string, error) {
	obj, err := w.Client.JSON(ctx, fmt.Sprintf(centerPrompt, turns(units)), 0.7, 3)
	if err != nil {
		return "", err
	}
	return str(obj, "center_text")
}

// Experiences asks for typed items; items with an unknown type, empty
// content or no valid source index are rejected.
func (w *Writer) Experiences(ctx context.Context, units []cluster.Unit) ([]cluster.Experience, error) {
	obj, err := w.Client.JSON(ctx, fmt.Sprintf(experiencePrompt, turns(units)), 0.1, 5)
	if err != nil {
		return nil, err
	}
	items, err := list(obj, "experiences")
	if err != nil {
		w.reject("%v", err)
		return nil, nil
	}
	var out []cluster.Experience
	for i, raw := range items {
		var it struct {
			Type    string          `json:"type"`
			Content string          `json:"content"`
			Sources json.RawMessage `json:"source_qa_indices"`
		}
		if err := json.Unmarshal(raw, &it); err != nil {
			w.reject("item %d: %v", i, err)
			continue
		}
		var idx []int
		if err := json.Unmarshal(it.Sources, &idx); err != nil {
			w.reject("item %d: source_qa_indices is not a list of numbers", i)
			continue
		}
		t := cluster.Type(it.Type)
		if !t.Valid() || strings.TrimSpace(it.Content) == "" {
			w.reject("item %d: type %q or empty content", i, it.Type)
			continue
		}
		var src []string
		for _, k := range idx {
			if k >= 0 && k < len(units) && !cluster.SmallTalk(units[k].Text) {
				src = append(src, units[k].ID)
			}
		}
		if len(src) == 0 {
			w.reject("item %d: no valid source turn", i)
			continue
		}
		out = append(out, cluster.Experience{Type: t, Content: clipRunes(it.Content, 120), Sources: src})
	}
	return out, nil
}

// Route asks which candidate the unit belongs to.
func (w *Writer) Route(ctx context.Context, u cluster.Unit, cands []*cluster.Cluster) (string, error) {
	var b strings.Builder
	for _, c := range cands {
		fmt.Fprintf(&b, "- cluster_id: %s, theme: %s\n", c.ID, c.CenterText)
	}
	obj, err := w.Client.JSON(ctx, fmt.Sprintf(routePrompt, u.Speaker+": "+u.Text, b.String()), 0.1, 3)
	if err != nil {
		w.reject("route %s: %v", u.ID, err)
		return "", nil
	}
	id, err := str(obj, "cluster_id")
	if err != nil {
		w.reject("route %s: %v", u.ID, err)
		return "", nil
	}
	return id, nil
}

func clipRunes(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n])
}
