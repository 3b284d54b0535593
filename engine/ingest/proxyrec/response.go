package proxyrec

import (
	"sort"
	"strings"

	json "github.com/segmentio/encoding/json"

	"ctxscope/engine/ingest/internal/norm"
	"ctxscope/engine/proxy"
	"ctxscope/engine/session"
)

// response is a response assembled from its body.
type response struct {
	message *session.Message // nil when the body holds no answer
	usage   *session.Usage
}

// readResponse assembles the answer of a response body of api, streamed
// or whole.
func readResponse(api proxy.API, body []byte) response {
	evs := events(body)
	switch api {
	case proxy.APIAnthropic:
		return anthropicResponse(evs)
	case proxy.APIChat:
		return chatResponse(evs)
	case proxy.APIResponses:
		return responsesResponse(evs)
	case proxy.APIGemini:
		return geminiResponse(evs)
	}
	return response{}
}

func assistant(blocks []session.Block) *session.Message {
	if blocks == nil {
		blocks = []session.Block{}
	}
	return &session.Message{Role: session.RoleAssistant, Blocks: blocks}
}

// anthropicUsage is the usage of a Messages response.
type anthropicUsage struct {
	Input      int `json:"input_tokens"`
	Output     int `json:"output_tokens"`
	CacheRead  int `json:"cache_read_input_tokens"`
	CacheWrite int `json:"cache_creation_input_tokens"`
}

// anthropicReplyMessage is a Messages response, whole or as a stream
// starts it.
type anthropicReplyMessage struct {
	ID         string           `json:"id"`
	Model      string           `json:"model"`
	Content    []anthropicBlock `json:"content"`
	StopReason string           `json:"stop_reason"`
	Usage      *anthropicUsage  `json:"usage"`
}

// anthropicEvent is one event of a Messages stream (or, typed "message",
// the whole response).
type anthropicEvent struct {
	Type         string                 `json:"type"`
	Message      *anthropicReplyMessage `json:"message"`
	Index        int                    `json:"index"`
	ContentBlock *anthropicBlock        `json:"content_block"`
	Delta        struct {
		Type        string `json:"type"`
		Text        string `json:"text"`
		Thinking    string `json:"thinking"`
		PartialJSON string `json:"partial_json"`
		StopReason  string `json:"stop_reason"`
	} `json:"delta"`
	Usage *anthropicUsage `json:"usage"`
}

// anthropicReply gathers a Messages response from its events.
type anthropicReply struct {
	msg     anthropicReplyMessage
	usage   anthropicUsage
	found   bool
	blocks  []anthropicBlock
	partial []strings.Builder // each block's tool input, as streamed
}

// anthropicResponse assembles a Messages response: a message object, or
// its stream of events.
func anthropicResponse(evs []json.RawMessage) response {
	var r anthropicReply
	for _, raw := range evs {
		var ev anthropicEvent
		if json.Unmarshal(raw, &ev) != nil {
			continue
		}
		if ev.Type == "message" {
			var whole anthropicReplyMessage
			json.Unmarshal(raw, &whole)
			ev.Message = &whole
		}
		r.add(&ev)
	}
	if !r.found {
		return response{}
	}
	return r.response()
}

// add takes one event in.
func (r *anthropicReply) add(ev *anthropicEvent) {
	switch ev.Type {
	case "message", "message_start":
		if ev.Message == nil {
			return
		}
		r.msg, r.found = *ev.Message, true
		if ev.Type == "message" {
			r.blocks = ev.Message.Content
		}
		if ev.Message.Usage != nil {
			r.usage = *ev.Message.Usage
		}
	case "content_block_start":
		for len(r.blocks) <= ev.Index {
			r.blocks = append(r.blocks, anthropicBlock{})
			r.partial = append(r.partial, strings.Builder{})
		}
		if ev.ContentBlock != nil {
			r.blocks[ev.Index] = *ev.ContentBlock
		}
	case "content_block_delta":
		if ev.Index >= len(r.blocks) {
			return
		}
		b := &r.blocks[ev.Index]
		b.Text += ev.Delta.Text
		b.Thinking += ev.Delta.Thinking
		if ev.Index < len(r.partial) {
			r.partial[ev.Index].WriteString(ev.Delta.PartialJSON)
		}
	case "message_delta":
		r.msg.StopReason = cmpOr(ev.Delta.StopReason, r.msg.StopReason)
		if u := ev.Usage; u != nil {
			r.usage.Output = u.Output
			if u.Input > 0 || u.CacheRead > 0 || u.CacheWrite > 0 {
				r.usage.Input, r.usage.CacheRead, r.usage.CacheWrite = u.Input, u.CacheRead, u.CacheWrite
			}
		}
	}
}

// response is the assistant message and usage gathered.
func (r *anthropicReply) response() response {
	var out []session.Block
	for i := range r.blocks {
		if i < len(r.partial) && r.partial[i].Len() > 0 {
			r.blocks[i].Input = json.RawMessage(r.partial[i].String())
		}
		if b, ok := anthropicBlockOf(&r.blocks[i]); ok {
			out = append(out, b)
		}
	}
	m := assistant(out)
	m.ID, m.Model, m.StopReason, m.Provider = r.msg.ID, r.msg.Model, r.msg.StopReason, "anthropic"
	u := r.usage
	return response{message: m, usage: &session.Usage{Input: u.Input, CacheRead: u.CacheRead, CacheWrite: u.CacheWrite, Output: u.Output}}
}

// chatEvent is a Chat Completions response, or one chunk of its stream.
type chatEvent struct {
	ID      string `json:"id"`
	Model   string `json:"model"`
	Choices []struct {
		Message *struct {
			Content   json.RawMessage `json:"content"`
			Reasoning string          `json:"reasoning_content"`
			ToolCalls []chatToolCall  `json:"tool_calls"`
		} `json:"message"`
		Delta struct {
			Content   string         `json:"content"`
			Reasoning string         `json:"reasoning_content"`
			ToolCalls []chatToolCall `json:"tool_calls"`
		} `json:"delta"`
		FinishReason string `json:"finish_reason"`
	} `json:"choices"`
	Usage *norm.ChatUsage `json:"usage"`
}

// chatReply gathers a Chat Completions response from its events.
type chatReply struct {
	text, reasoning strings.Builder
	calls           map[int]*chatToolCall // by index
	usage           *session.Usage
	id, model, stop string
}

// chatResponse assembles a Chat Completions response: a completion, or
// its chunks.
func chatResponse(evs []json.RawMessage) response {
	r := chatReply{calls: map[int]*chatToolCall{}}
	found := false
	for _, raw := range evs {
		var ev chatEvent
		if json.Unmarshal(raw, &ev) != nil || (ev.Choices == nil && ev.Usage == nil) {
			continue
		}
		found = true
		r.add(&ev)
	}
	if !found {
		return response{}
	}
	return response{message: r.message(), usage: r.usage}
}

// add takes one event in.
func (r *chatReply) add(ev *chatEvent) {
	r.id, r.model = cmpOr(ev.ID, r.id), cmpOr(ev.Model, r.model)
	if ev.Usage != nil {
		r.usage = ev.Usage.Session()
	}
	if len(ev.Choices) == 0 {
		return
	}
	c := ev.Choices[0]
	r.stop = cmpOr(c.FinishReason, r.stop)
	if m := c.Message; m != nil {
		for _, b := range TextBlocks(m.Content) {
			r.text.WriteString(b.Text)
		}
		r.reasoning.WriteString(m.Reasoning)
		for i, tc := range m.ToolCalls {
			r.calls[i] = &tc
		}
		return
	}
	r.text.WriteString(c.Delta.Content)
	r.reasoning.WriteString(c.Delta.Reasoning)
	for _, tc := range c.Delta.ToolCalls {
		have, ok := r.calls[tc.Index]
		if !ok {
			have = &chatToolCall{Index: tc.Index}
			r.calls[tc.Index] = have
		}
		have.ID = cmpOr(tc.ID, have.ID)
		have.Function.Name += tc.Function.Name
		have.Function.Arguments += tc.Function.Arguments
	}
}

// message is the assistant message gathered: reasoning, text, then the
// tool calls by index.
func (r *chatReply) message() *session.Message {
	var blocks []session.Block
	if r.reasoning.Len() > 0 {
		blocks = append(blocks, session.Block{Type: session.BlockThinking, Text: r.reasoning.String()})
	}
	if r.text.Len() > 0 {
		blocks = append(blocks, session.Block{Type: session.BlockText, Text: r.text.String()})
	}
	idx := make([]int, 0, len(r.calls))
	for i := range r.calls {
		idx = append(idx, i)
	}
	sort.Ints(idx)
	for _, i := range idx {
		c := r.calls[i]
		blocks = append(blocks, session.Block{Type: session.BlockToolCall, ToolCallID: c.ID, ToolName: c.Function.Name, Arguments: arguments(jsonString(c.Function.Arguments))})
	}
	m := assistant(blocks)
	m.ID, m.Model, m.StopReason, m.Provider = r.id, r.model, r.stop, "openai"
	return m
}

// responsesResponse assembles a Responses response: the response object
// (whole, or in the stream's response.completed), else the items the
// stream finished.
func responsesResponse(evs []json.RawMessage) response {
	var final *responsesObject
	var done []responsesItem
	for _, raw := range evs {
		var ev struct {
			Type     string           `json:"type"`
			Response *responsesObject `json:"response"`
			Item     *responsesItem   `json:"item"`
			Object   string           `json:"object"`
		}
		if json.Unmarshal(raw, &ev) != nil {
			continue
		}
		switch {
		case ev.Object == "response":
			var whole responsesObject
			json.Unmarshal(raw, &whole)
			final = &whole
		case ev.Type == "response.completed" || ev.Type == "response.incomplete" || ev.Type == "response.failed":
			final = ev.Response
		case ev.Type == "response.output_item.done" && ev.Item != nil:
			done = append(done, *ev.Item)
		}
	}
	items := done
	if final != nil && len(final.Output) > 0 {
		items = final.Output
	}
	if final == nil && len(done) == 0 {
		return response{}
	}
	var blocks []session.Block
	for i := range items {
		if b, ok := modelBlock(&items[i]); ok {
			blocks = append(blocks, b...)
		}
	}
	m := assistant(blocks)
	m.Provider = "openai"
	if final == nil {
		return response{message: m}
	}
	m.ID, m.Model, m.StopReason = final.ID, final.Model, final.Status
	return response{message: m, usage: final.usage()}
}

// responsesObject is a Responses response object.
type responsesObject struct {
	ID     string          `json:"id"`
	Model  string          `json:"model"`
	Status string          `json:"status"`
	Output []responsesItem `json:"output"`
	Usage  *struct {
		Input   int `json:"input_tokens"`
		Output  int `json:"output_tokens"`
		Details *struct {
			Cached int `json:"cached_tokens"`
		} `json:"input_tokens_details"`
		OutDetails *struct {
			Reasoning int `json:"reasoning_tokens"`
		} `json:"output_tokens_details"`
	} `json:"usage"`
}

// usage is the response's usage, with cached input apart; nil when it
// reports none.
func (r *responsesObject) usage() *session.Usage {
	x := r.Usage
	if x == nil {
		return nil
	}
	u := &session.Usage{Input: x.Input, Output: x.Output}
	if x.Details != nil {
		u.Input -= x.Details.Cached
		u.CacheRead = x.Details.Cached
	}
	if x.OutDetails != nil {
		u.Reasoning = x.OutDetails.Reasoning
	}
	return u
}

// geminiResponse assembles a generateContent response: its chunks' parts
// in order, the last usage metadata.
func geminiResponse(evs []json.RawMessage) response {
	var content geminiContent
	var u *session.Usage
	var model, stop string
	found := false
	for _, raw := range evs {
		var ev struct {
			Candidates []struct {
				Content      geminiContent `json:"content"`
				FinishReason string        `json:"finishReason"`
			} `json:"candidates"`
			Usage *struct {
				Prompt   int `json:"promptTokenCount"`
				Cached   int `json:"cachedContentTokenCount"`
				Output   int `json:"candidatesTokenCount"`
				Thoughts int `json:"thoughtsTokenCount"`
			} `json:"usageMetadata"`
			ModelVersion string `json:"modelVersion"`
		}
		if json.Unmarshal(raw, &ev) != nil || (ev.Candidates == nil && ev.Usage == nil) {
			continue
		}
		found = true
		model = cmpOr(ev.ModelVersion, model)
		if len(ev.Candidates) > 0 {
			content.Parts = append(content.Parts, ev.Candidates[0].Content.Parts...)
			stop = cmpOr(ev.Candidates[0].FinishReason, stop)
		}
		if x := ev.Usage; x != nil {
			u = &session.Usage{Input: x.Prompt - x.Cached, CacheRead: x.Cached, Output: x.Output + x.Thoughts, Reasoning: x.Thoughts}
		}
	}
	if !found {
		return response{}
	}
	content.Role = "model"
	m := geminiMessage(mergeText(content))
	m.Model, m.StopReason, m.Provider = model, stop, "google"
	return response{message: m, usage: u}
}

// mergeText joins the text parts a stream split, thought with thought and
// text with text, so that the message has the parts the model's content
// holds when it is sent back.
func mergeText(c geminiContent) geminiContent {
	var out []geminiPart
	for _, p := range c.Parts {
		if n := len(out); n > 0 && p.FunctionCall == nil && p.FunctionResponse == nil && p.InlineData == nil &&
			out[n-1].FunctionCall == nil && out[n-1].FunctionResponse == nil && out[n-1].InlineData == nil && out[n-1].Thought == p.Thought && p.Text != "" {
			out[n-1].Text += p.Text
			continue
		}
		out = append(out, p)
	}
	c.Parts = out
	return c
}

// Usage returns the usage the provider reported in the response of rec,
// nil when it reported none (or the exchange failed).
func Usage(rec *proxy.Record) *session.Usage {
	if rec.Response.Truncated || rec.Status < 200 || rec.Status > 299 {
		return nil
	}
	return readResponse(rec.API, rec.Response.Raw()).usage
}
