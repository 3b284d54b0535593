package app

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"sync"

	"ctxscope/engine/memory"
	"ctxscope/engine/memory/llm"
	"ctxscope/engine/memory/locomo"
	"ctxscope/engine/memory/mwimport"
	"ctxscope/engine/memory/recipe"
)

// EventBuild is the event a memory build emits as it goes: a BuildState.
const EventBuild = "memory:build"

// BuildRequest asks for a memory build from a LoCoMo conversation or an
// imported workspace session.
type BuildRequest struct {
	// Source is "locomo" (Path and Sample) or "session" (Session).
	Source  string `json:"source"`
	Path    string `json:"path"`
	Sample  int    `json:"sample"`
	Session string `json:"session"`
	// Extractor is "offline" (deterministic, no model) or "llm" (the
	// OpenAI-compatible model of the LLM settings; the key comes from the
	// environment only).
	Extractor string `json:"extractor"`
}

// BuildState is a build's progress.
type BuildState struct {
	Job   int    `json:"job"`
	Set   string `json:"set"`
	Stage string `json:"stage"` // reading, building, saving, done, failed, cancelled
	Done  int    `json:"done"`
	Total int    `json:"total"`
	Error string `json:"error,omitempty"`
}

// jobs tracks running builds.
type jobs struct {
	mu     sync.Mutex
	next   int
	cancel map[int]context.CancelFunc
	state  map[int]BuildState
}

func newJobs() *jobs { return &jobs{cancel: map[int]context.CancelFunc{}, state: map[int]BuildState{}} }

// Build starts a memory build and returns its first state at once; the
// build goes on in the background, reporting through EventBuild, and
// replaces a memory of the same name when it is done. Cancel stops it.
func (s *Memory) Build(ctx context.Context, r BuildRequest) (BuildState, error) {
	s.app.called("Memory.Build", r)
	src, err := s.buildSource(r)
	if err != nil {
		return BuildState{}, err
	}
	b, err := s.builder(ctx, r.Extractor)
	if err != nil {
		return BuildState{}, err
	}
	// The build outlives the call: only Cancel, or its end, stops it.
	job, cancel := context.WithCancel(context.WithoutCancel(ctx))
	s.jobs.mu.Lock()
	s.jobs.next++
	st := BuildState{Job: s.jobs.next, Set: src.ID, Stage: "building", Total: len(src.Passages)}
	s.jobs.cancel[st.Job], s.jobs.state[st.Job] = cancel, st
	s.jobs.mu.Unlock()
	b.Progress = func(done, total int) {
		s.report(BuildState{Job: st.Job, Set: st.Set, Stage: "building", Done: done, Total: total})
	}
	go func() {
		defer cancel()
		m, err := src.Build(job, b)
		if err == nil {
			s.report(BuildState{Job: st.Job, Set: st.Set, Stage: "saving", Done: st.Total, Total: st.Total})
			err = s.save(job, m)
		}
		end := BuildState{Job: st.Job, Set: st.Set, Stage: "done", Done: st.Total, Total: st.Total}
		switch {
		case errors.Is(err, context.Canceled):
			end.Stage = "cancelled"
		case err != nil:
			end.Stage, end.Error = "failed", err.Error()
		}
		s.report(end)
		s.app.logf("memory build %s: %s", st.Set, end.Stage)
	}()
	s.report(st)
	return st, nil
}

// report records and emits a build's state.
func (s *Memory) report(st BuildState) {
	s.jobs.mu.Lock()
	s.jobs.state[st.Job] = st
	if st.Stage == "done" || st.Stage == "failed" || st.Stage == "cancelled" {
		delete(s.jobs.cancel, st.Job)
	}
	s.jobs.mu.Unlock()
	s.app.platform.Emit(EventBuild, st)
}

// Cancel stops a running build. Cancelling a finished build does nothing.
func (s *Memory) Cancel(ctx context.Context, job int) {
	s.app.called("Memory.Cancel", job)
	s.jobs.mu.Lock()
	cancel := s.jobs.cancel[job]
	s.jobs.mu.Unlock()
	if cancel != nil {
		cancel()
	}
}

// Job returns a build's latest state.
func (s *Memory) Job(ctx context.Context, job int) (BuildState, error) {
	s.app.called("Memory.Job", job)
	s.jobs.mu.Lock()
	defer s.jobs.mu.Unlock()
	st, ok := s.jobs.state[job]
	if !ok {
		return BuildState{}, fmt.Errorf("no build %d", job)
	}
	return st, nil
}

// buildSource reads what r builds a memory from.
func (s *Memory) buildSource(r BuildRequest) (recipe.Source, error) {
	switch r.Source {
	case "locomo":
		abs, err := filepath.Abs(r.Path)
		if err != nil || r.Path == "" {
			return recipe.Source{}, fmt.Errorf("enter the path of a LoCoMo file")
		}
		c, err := s.loadLoCoMo(abs, r.Sample)
		if err != nil {
			return recipe.Source{}, err
		}
		return recipe.LoCoMo(c, abs, r.Sample), nil
	case "session":
		sess, err := s.app.ws.LoadSession(r.Session)
		if err != nil {
			return recipe.Source{}, fmt.Errorf("%w: %q", ErrNotFound, r.Session)
		}
		return recipe.Session(r.Session, sess, memory.Origin{Session: r.Session})
	}
	return recipe.Source{}, fmt.Errorf("unknown source %q (want locomo or session)", r.Source)
}

// loadLoCoMo reads conversation sample of a LoCoMo file (cached).
func (s *Memory) loadLoCoMo(path string, sample int) (*locomo.Conversation, error) {
	c, err := s.conversation(&memory.Memory{ID: filepath.Base(path), From: memory.Origin{Kind: "locomo", Path: path, Sample: sample}})
	if err != nil {
		return nil, err
	}
	return c, nil
}

// builder returns the builder for an extractor; the llm extractor's
// model is the one the settings name.
func (s *Memory) builder(ctx context.Context, extractor string) (*memory.Builder, error) {
	emb, err := s.embedder()
	if err != nil {
		return nil, err
	}
	model := func() (*llm.Client, error) {
		cfg, err := s.LLMSettings(ctx)
		if err != nil {
			return nil, err
		}
		return llm.FromEnv(cfg.URL, cfg.Model)
	}
	logf := func(format string, args ...any) { s.app.logf("memory build: "+format, args...) }
	return recipe.Spec{Extractor: extractor, Embedder: emb, Model: model, Logf: logf}.Builder()
}

// LLM is the model configuration of builds with the llm extractor. The
// key is never stored: it comes from CTXSCOPE_LLM_KEY or OPENAI_API_KEY.
type LLM struct {
	URL   string `json:"url"`
	Model string `json:"model"`
	// KeySet reports whether the environment holds a key.
	KeySet bool `json:"keySet"`
}

const llmSetting = "memory.llm"

// LLMSettings returns the stored model configuration.
func (s *Memory) LLMSettings(ctx context.Context) (LLM, error) {
	s.app.called("Memory.LLMSettings")
	var cfg LLM
	if _, err := s.app.local.get(llmSetting, &cfg); err != nil {
		return cfg, err
	}
	cfg.KeySet = os.Getenv("CTXSCOPE_LLM_KEY") != "" || os.Getenv("OPENAI_API_KEY") != ""
	return cfg, nil
}

// SetLLMSettings stores the base URL and model name of an
// OpenAI-compatible chat-completions endpoint.
func (s *Memory) SetLLMSettings(ctx context.Context, url, model string) (LLM, error) {
	s.app.called("Memory.SetLLMSettings", url, model)
	if err := s.app.local.put(llmSetting, LLM{URL: url, Model: model}); err != nil {
		return LLM{}, err
	}
	return s.LLMSettings(ctx)
}

// ImportRequest names MemWeaver's exported memory of one LoCoMo
// conversation: kg_sample_N.json and clusters_sample_N.json, and the
// LoCoMo file to align its passages with (optional).
type ImportRequest struct {
	Graph    string `json:"graph"`
	Clusters string `json:"clusters"`
	LoCoMo   string `json:"locomo"`
	Sample   int    `json:"sample"`
}

// Import loads a MemWeaver export into the workspace as the memory
// "imported-<conversation id>" and returns it.
func (s *Memory) Import(ctx context.Context, r ImportRequest) (MemoryInfo, error) {
	s.app.called("Memory.Import", r)
	if r.Graph == "" {
		return MemoryInfo{}, fmt.Errorf("enter the path of kg_sample_N.json")
	}
	var turns []memory.Passage
	id := "sample-" + strconv.Itoa(r.Sample)
	from := memory.Origin{Kind: "memweaver", Path: r.Graph, Sample: r.Sample}
	if r.LoCoMo != "" {
		abs, err := filepath.Abs(r.LoCoMo)
		if err != nil {
			return MemoryInfo{}, err
		}
		c, err := s.loadLoCoMo(abs, r.Sample)
		if err != nil {
			return MemoryInfo{}, err
		}
		turns, id, from = c.Passages(), c.ID, memory.Origin{Kind: "locomo", Path: abs, Sample: r.Sample}
	}
	m, _, err := mwimport.Load(r.Graph, r.Clusters, turns)
	if err != nil {
		return MemoryInfo{}, err
	}
	m.ID, m.From = "imported-"+id, from
	if err := s.save(ctx, m); err != nil {
		return MemoryInfo{}, err
	}
	s.app.logf("memory imported: %s", m.ID)
	return s.Info(ctx, m.ID)
}
