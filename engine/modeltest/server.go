// Package modeltest is a model server for tests: it speaks the wire APIs
// that coding agents call (Anthropic Messages and OpenAI Chat Completions
// now; the others as they are added), streams its answers as the real APIs do, follows a scripted task
// by calling the tools each request offers, returns usage that is a
// deterministic function of the request, and keeps every request body it
// receives: what the model received, against which a test checks what an
// agent's log says.
package modeltest

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"sort"
	"strings"
	"sync"
	"time"
)

// Request is one request the server received, as it arrived, with what
// the server answered to a model call.
type Request struct {
	Method string
	Path   string
	Header http.Header
	Body   []byte
	At     time.Time
	// Task is the marker of the scripted conversation the request
	// belongs to, "" for one the script does not know (an agent's title
	// or summary call) and for requests that are no model call.
	Task string
	// Calls are the tool calls the server answered with, in order.
	Calls []Call
	// Usage is the usage the server reported for its answer.
	Usage Usage
}

// Call is a tool call the server made: JSON arguments (Input), or the
// text of a freeform tool (Text, with Freeform set).
type Call struct {
	ID, Name string
	Input    map[string]any
	Text     string
	Freeform bool
	// Namespace is the namespace of a tool a tool search found.
	Namespace string
	// Search marks a call of the Responses API's client-side tool
	// search: a tool_search_call item, which is not a turn of the
	// script (the step it was made for comes again).
	Search bool
}

// Usage is what the server reported a model call cost: input tokens not
// read from the cache, input tokens read from it, output tokens.
type Usage struct {
	Input, CacheRead, Output int
}

// Server is a running model server.
type Server struct {
	*httptest.Server
	script Script

	mu       sync.Mutex
	requests []Request
	// convs are the conversations seen, by the key of their first user
	// message, each with its last request's input as the server counted
	// it (for cache reads).
	convs map[string][]byte
}

// Start starts a server on a loopback port that follows script. Close it
// when done.
func Start(script Script) *Server {
	s := &Server{script: script, convs: map[string][]byte{}}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /v1/messages", s.anthropicMessages)
	mux.HandleFunc("POST /v1/messages/count_tokens", s.anthropicCountTokens)
	mux.HandleFunc("POST /v1/chat/completions", s.chatCompletions)
	mux.HandleFunc("POST /v1/responses", s.responses)
	mux.HandleFunc("POST /v1beta/models/", s.gemini)
	mux.HandleFunc("POST /chat/completions", s.chatCompletions)
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "modeltest: no such endpoint", http.StatusNotFound)
	})
	s.Server = httptest.NewServer(s.keep(mux))
	return s
}

// keep records every request before next answers it.
func (s *Server) keep(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		r.Body = io.NopCloser(bytes.NewReader(body))
		s.mu.Lock()
		s.requests = append(s.requests, Request{Method: r.Method, Path: r.URL.Path, Header: r.Header.Clone(), Body: body, At: time.Now()})
		i := len(s.requests) - 1
		s.mu.Unlock()
		time.Sleep(s.script.Delay)
		next.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), requestIndex{}, i)))
	})
}

type requestIndex struct{}

// answered records what the server answered request r with.
func (s *Server) answered(r *http.Request, task string, calls []Call, u Usage) {
	i, ok := r.Context().Value(requestIndex{}).(int)
	if !ok {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.requests[i].Task, s.requests[i].Calls, s.requests[i].Usage = task, calls, u
}

// Requests returns the requests received so far, in order.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.requests...)
}

// cacheRead returns how much of input the conversation's previous request
// shared as its prefix (what a provider would read from its cache), and
// remembers input as the conversation's latest.
func (s *Server) cacheRead(conv string, input []byte) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	prev := s.convs[conv]
	s.convs[conv] = input
	n := 0
	for n < len(prev) && n < len(input) && prev[n] == input[n] {
		n++
	}
	return n
}

// ToolResults returns the text of each tool result the request carries,
// by the id of its call: what the model received of each result.
func (r Request) ToolResults() map[string]string {
	switch r.Path {
	case "/v1/messages":
		return anthropicToolResults(r.Body)
	case "/v1/chat/completions", "/chat/completions":
		return chatToolResults(r.Body)
	case "/v1/responses":
		return responsesToolResults(r.Body)
	}
	if strings.HasPrefix(r.Path, "/v1beta/models/") {
		return geminiToolResults(r.Body)
	}
	return map[string]string{}
}

// ToolCallsSent returns the arguments of each tool call the request
// carries back in its history, by call id: the calls as the model
// received them in its context (an agent may add defaults to what the
// model wrote).
func (r Request) ToolCallsSent() map[string]json.RawMessage {
	switch r.Path {
	case "/v1/messages":
		return anthropicToolCallsSent(r.Body)
	case "/v1/chat/completions", "/chat/completions":
		return chatToolCallsSent(r.Body)
	case "/v1/responses":
		return responsesToolCallsSent(r.Body)
	}
	if strings.HasPrefix(r.Path, "/v1beta/models/") {
		return geminiToolCallsSent(r.Body)
	}
	return map[string]json.RawMessage{}
}

// Unpaired lists what the request's history holds out of pairs, as the
// APIs would reject it: a tool result whose call it does not carry, or a
// call carried without its result. It is empty for a valid request.
func (r Request) Unpaired() []string {
	results, calls := r.ToolResults(), r.ToolCallsSent()
	var out []string
	for id := range results {
		if _, ok := calls[id]; !ok {
			out = append(out, "a result of call "+id+", which the request does not carry")
		}
	}
	for id := range calls {
		if _, ok := results[id]; !ok {
			out = append(out, "call "+id+" without its result")
		}
	}
	sort.Strings(out)
	return out
}
