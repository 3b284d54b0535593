package app

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"unicode"

	"ctxscope/engine/annotate"
	"ctxscope/engine/memory/explore"
	"ctxscope/engine/store"
)

// Annotations is the bound service of the annotation queue: questions to
// judge, the retrieved items of each, marks persisted in the workspace as
// soon as they are made, agreement between annotators, and export.
type Annotations struct {
	app *App
	mem *Memory
}

const annotatorSetting = "annotate.annotator"

func queueSetting(set string) string { return "annotate.queue." + set }

// Annotator returns the annotator name marks are made under, "" when none
// is set: on a shared server, the name of the signed-in user's token;
// otherwise the name this app's user set.
func (a *Annotations) Annotator(ctx context.Context) (string, error) {
	a.app.called("Annotations.Annotator")
	return a.who(ctx)
}

// who is the annotator of a call.
func (a *Annotations) who(ctx context.Context) (string, error) {
	if user := userOf(ctx); user != "" {
		return user, nil
	}
	var name string
	_, err := a.app.local.get(annotatorSetting, &name)
	return name, err
}

// SetAnnotator sets the annotator name: 1 to 64 characters, no control
// characters. A signed-in user of a shared server annotates under their
// token's name and cannot take another.
func (a *Annotations) SetAnnotator(ctx context.Context, name string) (string, error) {
	a.app.called("Annotations.SetAnnotator", name)
	if user := userOf(ctx); user != "" {
		if strings.TrimSpace(name) != user {
			return "", fmt.Errorf("signed in as %s: your marks are made under that name", user)
		}
		return user, nil
	}
	name = strings.TrimSpace(name)
	if name == "" || len(name) > 64 || strings.IndexFunc(name, unicode.IsControl) >= 0 {
		return "", fmt.Errorf("an annotator name has 1 to 64 characters and no control characters")
	}
	return name, a.app.local.put(annotatorSetting, name)
}

func (a *Annotations) queue(ctx context.Context, set string) (annotate.Queue, error) {
	var q annotate.Queue
	_, err := a.app.ws.Store.Setting(ctx, queueSetting(set), &q)
	return q, err
}

// QueueEntry is a queued question with the current annotator's progress.
type QueueEntry struct {
	annotate.Question
	Text     string `json:"text"` // the question, LoCoMo's or the user's
	Category string `json:"category,omitempty"`
	Items    int    `json:"items"`  // retrieved items to judge
	Judged   int    `json:"judged"` // of which the annotator marked
	// Sufficient is the annotator's verdict on the whole context, nil
	// before one is given.
	Sufficient *bool `json:"sufficient"`
}

// Queue returns the set's queue with the current annotator's progress.
func (a *Annotations) Queue(ctx context.Context, set string) ([]QueueEntry, error) {
	a.app.called("Annotations.Queue", set)
	return a.entries(ctx, set)
}

// entries is the set's queue with the progress of the call's annotator.
func (a *Annotations) entries(ctx context.Context, set string) ([]QueueEntry, error) {
	q, err := a.queue(ctx, set)
	if err != nil {
		return nil, err
	}
	who, err := a.who(ctx)
	if err != nil {
		return nil, err
	}
	marks, err := a.latest(ctx, set)
	if err != nil {
		return nil, err
	}
	out := make([]QueueEntry, 0, len(q))
	for _, x := range q {
		task, err := a.task(ctx, set, x, who, marks)
		if err != nil {
			return nil, err
		}
		e := QueueEntry{Question: x, Text: task.Text, Category: task.Category, Items: len(task.Items), Sufficient: task.Sufficient}
		for _, it := range task.Items {
			if it.Helpful != nil {
				e.Judged++
			}
		}
		out = append(out, e)
	}
	return out, nil
}

// AddLoCoMo queues LoCoMo questions by index.
func (a *Annotations) AddLoCoMo(ctx context.Context, set string, indexes []int) ([]QueueEntry, error) {
	a.app.called("Annotations.AddLoCoMo", set, indexes)
	qs, err := a.mem.Questions(ctx, set)
	if err != nil {
		return nil, err
	}
	var add []annotate.Question
	for _, i := range indexes {
		if i < 0 || i >= len(qs) {
			return nil, fmt.Errorf("%s has no LoCoMo question %d", set, i)
		}
		add = append(add, annotate.LoCoMo(i))
	}
	return a.update(ctx, set, func(q annotate.Queue) annotate.Queue { return q.Add(add...) })
}

// AddCustom queues a question the user wrote.
func (a *Annotations) AddCustom(ctx context.Context, set, text string) ([]QueueEntry, error) {
	a.app.called("Annotations.AddCustom", set, text)
	if _, err := a.mem.get(ctx, set); err != nil {
		return nil, err
	}
	c, err := annotate.Custom(text)
	if err != nil {
		return nil, err
	}
	return a.update(ctx, set, func(q annotate.Queue) annotate.Queue { return q.Add(c) })
}

// Remove takes a question off the queue; its marks stay.
func (a *Annotations) Remove(ctx context.Context, set, id string) ([]QueueEntry, error) {
	a.app.called("Annotations.Remove", set, id)
	return a.update(ctx, set, func(q annotate.Queue) annotate.Queue { return q.Remove(id) })
}

// update edits the set's queue in one transaction: servers sharing the
// workspace that edit it at once each keep their edit.
func (a *Annotations) update(ctx context.Context, set string, edit func(annotate.Queue) annotate.Queue) ([]QueueEntry, error) {
	var q annotate.Queue
	err := a.app.ws.Store.UpdateSetting(ctx, queueSetting(set), &q, store.ChangeAnnotations, func() error {
		if q = edit(q); q == nil {
			q = annotate.Queue{}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return a.entries(ctx, set)
}

// TaskItem is a retrieved item to judge, with the annotator's mark.
type TaskItem struct {
	RetrievedItem
	Key     string `json:"key"` // "<kind>:<id>", the item's name in marks
	Helpful *bool  `json:"helpful"`
	Notes   string `json:"notes"`
}

// Task is one question to judge: its retrieved context, item by item.
type Task struct {
	Question   annotate.Question `json:"question"`
	Text       string            `json:"text"`
	Category   string            `json:"category,omitempty"`
	Annotator  string            `json:"annotator"`
	Items      []TaskItem        `json:"items"`
	Tokens     int               `json:"tokens"`
	Sufficient *bool             `json:"sufficient"`
	Notes      string            `json:"notes"` // on the whole context
}

// Task returns a queued question's retrieved items (default retrieval)
// with the current annotator's marks.
func (a *Annotations) Task(ctx context.Context, set, question string) (*Task, error) {
	a.app.called("Annotations.Task", set, question)
	q, err := a.queue(ctx, set)
	if err != nil {
		return nil, err
	}
	x, ok := q.Find(question)
	if !ok {
		return nil, fmt.Errorf("question %q is not in the queue of %s", question, set)
	}
	who, err := a.who(ctx)
	if err != nil {
		return nil, err
	}
	marks, err := a.latest(ctx, set)
	if err != nil {
		return nil, err
	}
	return a.task(ctx, set, x, who, marks)
}

func (a *Annotations) task(ctx context.Context, set string, x annotate.Question, who string, marks []store.Annotation) (*Task, error) {
	req := RetrieveRequest{Set: set, Index: x.Index, Question: x.Text, Mode: "default"}
	res, err := a.mem.Retrieve(ctx, req)
	if err != nil {
		return nil, err
	}
	t := &Task{Question: x, Text: res.Question, Annotator: who, Items: make([]TaskItem, len(res.Items)), Tokens: res.Tokens}
	if x.Index >= 0 {
		if qs, err := a.mem.Questions(ctx, set); err == nil && x.Index < len(qs) {
			t.Category = qs[x.Index].Kind
		}
	}
	mine := map[string]store.Annotation{}
	for _, m := range marks {
		if m.Question == x.ID && m.Annotator == who {
			mine[m.Item] = m
		}
	}
	for i, it := range res.Items {
		ti := TaskItem{RetrievedItem: it, Key: it.Kind + ":" + it.ID}
		if m, ok := mine[ti.Key]; ok {
			ti.Helpful, ti.Notes = m.Helpful, m.Notes
		}
		t.Items[i] = ti
	}
	if m, ok := mine[annotate.ContextItem]; ok {
		t.Sufficient, t.Notes = m.Sufficient, m.Notes
	}
	return t, nil
}

// Mark is one judgement: the whole state of an item (or of the context,
// when Item is "") for the current annotator.
type Mark struct {
	Set      string `json:"set"`
	Question string `json:"question"` // the queue entry's id
	Item     string `json:"item"`     // "<kind>:<id>", or "" for the whole context
	// Helpful judges an item; Sufficient the whole context.
	Helpful    *bool  `json:"helpful"`
	Sufficient *bool  `json:"sufficient"`
	Notes      string `json:"notes"`
}

// Mark stores a judgement at once, under the current annotator.
func (a *Annotations) Mark(ctx context.Context, m Mark) (store.Annotation, error) {
	a.app.called("Annotations.Mark", m)
	who, err := a.who(ctx)
	if err != nil {
		return store.Annotation{}, err
	}
	if who == "" {
		return store.Annotation{}, fmt.Errorf("set your annotator name first")
	}
	q, err := a.queue(ctx, m.Set)
	if err != nil {
		return store.Annotation{}, err
	}
	if _, ok := q.Find(m.Question); !ok {
		return store.Annotation{}, fmt.Errorf("question %q is not in the queue of %s", m.Question, m.Set)
	}
	if (m.Item == annotate.ContextItem) != (m.Helpful == nil) || (m.Item != annotate.ContextItem && m.Sufficient != nil) {
		return store.Annotation{}, fmt.Errorf("an item is helpful or not; the whole context (no item) is sufficient or not")
	}
	if len(m.Notes) > 4000 {
		return store.Annotation{}, fmt.Errorf("notes are longer than 4,000 bytes")
	}
	ann := store.Annotation{Scope: m.Set, Question: m.Question, Item: m.Item, Annotator: who, Helpful: m.Helpful, Sufficient: m.Sufficient, Notes: m.Notes}
	id, err := a.app.ws.Store.PutAnnotation(ctx, ann)
	ann.ID = id
	return ann, err
}

func (a *Annotations) latest(ctx context.Context, set string) ([]store.Annotation, error) {
	all, err := a.app.ws.Store.Annotations(ctx, set)
	if err != nil {
		return nil, err
	}
	return annotate.Latest(all), nil
}

// Marks returns every annotator's latest marks of a set.
func (a *Annotations) Marks(ctx context.Context, set string) ([]store.Annotation, error) {
	a.app.called("Annotations.Marks", set)
	out, err := a.latest(ctx, set)
	if out == nil {
		out = []store.Annotation{}
	}
	return out, err
}

// Agreement returns the agreement between annotators per category:
// Cohen's kappa for two, Fleiss' kappa for more.
func (a *Annotations) Agreement(ctx context.Context, set string) ([]annotate.CategoryAgreement, error) {
	a.app.called("Annotations.Agreement", set)
	all, err := a.app.ws.Store.Annotations(ctx, set)
	if err != nil {
		return nil, err
	}
	return annotate.Agreements(all), nil
}

// ExportFile is an export's content, for the frontend to save.
type ExportFile struct {
	Name string `json:"name"`
	Type string `json:"type"` // MIME type
	Text string `json:"text"`
	Rows int    `json:"rows"`
}

// Export writes every annotator's latest marks of a set as "jsonl" or
// "csv", with each question's and item's text.
func (a *Annotations) Export(ctx context.Context, set, format string) (ExportFile, error) {
	a.app.called("Annotations.Export", set, format)
	lm, err := a.mem.get(ctx, set)
	if err != nil {
		return ExportFile{}, err
	}
	marks, err := a.latest(ctx, set)
	if err != nil {
		return ExportFile{}, err
	}
	q, err := a.queue(ctx, set)
	if err != nil {
		return ExportFile{}, err
	}
	qs, _ := a.mem.Questions(ctx, set)
	rows := make([]annotate.Row, 0, len(marks))
	for _, m := range marks {
		r := annotate.Row{Scope: m.Scope, QuestionID: m.Question, Item: m.Item, ItemKind: "context", Annotator: m.Annotator,
			Helpful: m.Helpful, Sufficient: m.Sufficient, Notes: m.Notes, Time: m.Time}
		if x, ok := q.Find(m.Question); ok {
			r.Question = x.Text
			if x.Index >= 0 && x.Index < len(qs) {
				r.Question = qs[x.Index].Question
			}
		}
		if m.Item != annotate.ContextItem {
			r.ItemKind, r.ItemText = explore.ItemText(lm.m, m.Item)
		}
		rows = append(rows, r)
	}
	var b bytes.Buffer
	out := ExportFile{Name: "annotations-" + set + "." + format, Rows: len(rows)}
	switch format {
	case "jsonl":
		out.Type, err = "application/x-ndjson", annotate.WriteJSONL(&b, rows)
	case "csv":
		out.Type, err = "text/csv", annotate.WriteCSV(&b, rows)
	default:
		return ExportFile{}, fmt.Errorf("unknown format %q (want jsonl or csv)", format)
	}
	out.Text = b.String()
	return out, err
}
