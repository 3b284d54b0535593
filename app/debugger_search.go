package app

import (
	"context"
	"ctxscope/engine/workspace"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"ctxscope/engine/debug"
	"ctxscope/search"
)

// Hit is a search hit with where it lands in the debugger.
type Hit struct {
	search.Hit
	// ThreadIndex and EntryIndex locate the hit's entry; -1 when the hit
	// is not an entry of a session.
	ThreadIndex int `json:"threadIndex"`
	EntryIndex  int `json:"entryIndex"`
	// Request and Message are where the entry shows (see
	// debug.Location), filled for hits in the session searched; Request
	// is -1 otherwise.
	Request int `json:"request"`
	Message int `json:"message"`
}

// Hits is one page of search results.
type Hits struct {
	Total uint64 `json:"total"`
	Hits  []Hit  `json:"hits"`
}

// Search runs a plain-words search over the workspace, or over one
// session when key is not empty, and locates the hits of that session
// among its requests.
func (d *Debugger) Search(ctx context.Context, query, key string, size int) (*Hits, error) {
	d.app.called("Debugger.Search", query, key, size)
	if strings.TrimSpace(query) == "" {
		return &Hits{Hits: []Hit{}}, nil
	}
	res, err := d.app.ws.Search(ctx, search.Request{Query: query, Mode: search.ModePlain, Session: key, Size: max(1, min(size, 200))})
	if err != nil {
		return nil, err
	}
	out := &Hits{Total: res.Total, Hits: make([]Hit, 0, len(res.Hits))}
	locators := map[int]*debug.Locator{}
	var o *workspace.Opened
	if key != "" {
		if o, err = d.app.sessions.get(ctx, key); err != nil {
			return nil, err
		}
	}
	for _, h := range res.Hits {
		hit := Hit{Hit: h, Request: -1, Message: -1}
		hit.ThreadIndex, hit.EntryIndex = entryOf(h.ID)
		if o != nil && h.Session == key && hit.ThreadIndex >= 0 && hit.ThreadIndex < len(o.Session.Threads) {
			loc := locators[hit.ThreadIndex]
			if loc == nil {
				loc = debug.NewLocator(o.Session.Threads[hit.ThreadIndex], nil)
				locators[hit.ThreadIndex] = loc
			}
			if l, ok := loc.Locate(hit.EntryIndex); ok {
				hit.Request, hit.Message = l.Request, l.Message
			}
		}
		out.Hits = append(out.Hits, hit)
	}
	return out, nil
}

// Locate returns where entry number entry of thread thread of a session
// shows among the thread's requests.
func (d *Debugger) Locate(ctx context.Context, key string, thread, entry int) (debug.Location, error) {
	d.app.called("Debugger.Locate", key, thread, entry)
	o, err := d.app.sessions.get(ctx, key)
	if err != nil {
		return debug.Location{}, err
	}
	if thread < 0 || thread >= len(o.Session.Threads) {
		return debug.Location{}, fmt.Errorf("no thread %d", thread)
	}
	l, ok := debug.NewLocator(o.Session.Threads[thread], nil).Locate(entry)
	if !ok {
		return debug.Location{}, errors.New("no request shows this entry")
	}
	return l, nil
}

// entryOf reads the thread and entry numbers of a session document id,
// "key#thread/entry/block"; -1, -1 for other documents.
func entryOf(id string) (thread, entry int) {
	i := strings.LastIndexByte(id, '#')
	if i < 0 {
		return -1, -1
	}
	parts := strings.Split(id[i+1:], "/")
	if len(parts) != 3 {
		return -1, -1
	}
	t, err1 := strconv.Atoi(parts[0])
	e, err2 := strconv.Atoi(parts[1])
	if err1 != nil || err2 != nil {
		return -1, -1
	}
	return t, e
}
