package modeltest

import (
	"encoding/json"
	"io"
	"net/http"
	"strconv"
	"strings"
)

// geminiRequest is what the server reads of a generateContent request.
type geminiRequest struct {
	Contents []geminiContent `json:"contents"`
	Tools    []struct {
		FunctionDeclarations []struct {
			Name                 string `json:"name"`
			Parameters           *geminiSchema
			ParametersJSONSchema *geminiSchema `json:"parametersJsonSchema"`
		} `json:"functionDeclarations"`
	} `json:"tools"`
	GenerationConfig geminiGenerationConfig `json:"generationConfig"`
}

// geminiGenerationConfig is what the server reads of a request's
// generation config: whether, and in what shape, it wants JSON.
type geminiGenerationConfig struct {
	ResponseMimeType   string          `json:"responseMimeType"`
	ResponseJSONSchema json.RawMessage `json:"responseJsonSchema"`
	ResponseSchema     json.RawMessage `json:"responseSchema"`
}

type geminiSchema struct {
	Properties map[string]json.RawMessage `json:"properties"`
}

type geminiContent struct {
	Role  string       `json:"role"`
	Parts []geminiPart `json:"parts"`
}

type geminiPart struct {
	Text         string `json:"text,omitempty"`
	FunctionCall *struct {
		ID   string          `json:"id,omitempty"`
		Name string          `json:"name"`
		Args json.RawMessage `json:"args"`
	} `json:"functionCall,omitempty"`
	FunctionResponse *struct {
		ID       string          `json:"id,omitempty"`
		Name     string          `json:"name"`
		Response json.RawMessage `json:"response"`
	} `json:"functionResponse,omitempty"`
}

// gemini answers POST /v1beta/models/MODEL:generateContent,
// :streamGenerateContent (?alt=sse) and :countTokens.
func (s *Server) gemini(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	_, method, _ := strings.Cut(r.URL.Path, ":")
	if method == "countTokens" {
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(map[string]int{"totalTokens": len(body) / 4})
		return
	}
	var req geminiRequest
	if err := json.Unmarshal(body, &req); err != nil {
		openAIError(w, http.StatusBadRequest, err.Error())
		return
	}
	users, turns := geminiTurns(req)
	offered := geminiOffered(req)
	task, parts, err := s.respondTo(users, turns, offered, "gcall")
	if err != nil {
		openAIError(w, http.StatusBadRequest, err.Error())
		return
	}
	if g := req.GenerationConfig; task == "" && g.ResponseMimeType == "application/json" {
		parts = []part{{Text: jsonSideReply(g)}}
	}
	var calls []Call
	var out []map[string]any
	for _, p := range parts {
		if p.Call == nil {
			out = append(out, map[string]any{"text": p.Text})
			continue
		}
		calls = append(calls, *p.Call)
		out = append(out, map[string]any{"functionCall": map[string]any{"id": p.Call.ID, "name": p.Call.Name, "args": p.Call.Input}})
	}
	cached := s.cacheRead(task+"\x00"+strings.Join(users, "\x00"), body)
	outJSON, _ := json.Marshal(out)
	u := Usage{Input: (len(body) - cached) / 4, CacheRead: cached / 4, Output: len(outJSON)/4 + 1}
	s.answered(r, task, calls, u)
	usage := map[string]int{"promptTokenCount": u.Input + u.CacheRead, "candidatesTokenCount": u.Output,
		"totalTokenCount": u.Input + u.CacheRead + u.Output, "cachedContentTokenCount": u.CacheRead}
	final := map[string]any{"candidates": []any{map[string]any{"content": map[string]any{"role": "model", "parts": out}, "finishReason": "STOP", "index": 0}},
		"usageMetadata": usage, "modelVersion": "gemini-2.5-pro", "responseId": nextID("gresp")}
	if method != "streamGenerateContent" {
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(final)
		return
	}
	streamGemini(w, out, usage, final["responseId"])
}

// geminiTurns returns the user texts of a request, and how many model
// turns it holds.
func geminiTurns(req geminiRequest) (users []string, turns int) {
	for _, c := range req.Contents {
		switch c.Role {
		case "model":
			turns++
		case "user", "":
			for _, p := range c.Parts {
				if p.Text != "" {
					users = append(users, p.Text)
				}
			}
		}
	}
	return users, turns
}

// geminiOffered returns the functions a request declares, by name.
func geminiOffered(req geminiRequest) map[string]Tool {
	offered := map[string]Tool{}
	for _, t := range req.Tools {
		for _, f := range t.FunctionDeclarations {
			schema := f.ParametersJSONSchema
			if schema == nil {
				schema = f.Parameters
			}
			var props map[string]json.RawMessage
			if schema != nil {
				props = schema.Properties
			}
			offered[f.Name] = toolOf(f.Name, props)
		}
	}
	return offered
}

// jsonSideReply answers a side call that wants JSON, not a turn of the
// script: Gemini CLI's check for an unproductive loop, after 30 turns. It
// gets the schema's zero object (a confidence of 0: no loop), where
// "Done." would make the agent retry for minutes.
func jsonSideReply(g geminiGenerationConfig) string {
	schema := g.ResponseJSONSchema
	if schema == nil {
		schema = g.ResponseSchema
	}
	zero, _ := json.Marshal(zeroOf(schema))
	return string(zero)
}

// streamGemini streams a reply's parts as Gemini does: text in pieces,
// calls whole; the last chunk carries the finish reason and the usage.
func streamGemini(w http.ResponseWriter, out []map[string]any, usage map[string]int, responseID any) {
	e := newSSE(w)
	for i, p := range out {
		last := i == len(out)-1
		if text, ok := p["text"].(string); ok && !last {
			for _, piece := range chunks(text, 16) {
				e.data(map[string]any{"candidates": []any{map[string]any{"content": map[string]any{"role": "model", "parts": []any{map[string]any{"text": piece}}}, "index": 0}},
					"modelVersion": "gemini-2.5-pro"})
			}
			continue
		}
		if !last {
			e.data(map[string]any{"candidates": []any{map[string]any{"content": map[string]any{"role": "model", "parts": []any{p}}, "index": 0}},
				"modelVersion": "gemini-2.5-pro"})
			continue
		}
		e.data(map[string]any{"candidates": []any{map[string]any{"content": map[string]any{"role": "model", "parts": []any{p}}, "finishReason": "STOP", "index": 0}},
			"usageMetadata": usage, "modelVersion": "gemini-2.5-pro", "responseId": responseID})
	}
}

// geminiToolResults returns the output of each function response of a
// request, by the order of its call: "#N" for the Nth response (Gemini's
// calls carry no id the server gave), and by id when the agent sent one.
func geminiToolResults(body []byte) map[string]string {
	var req geminiRequest
	out := map[string]string{}
	if json.Unmarshal(body, &req) != nil {
		return out
	}
	n := 0
	for _, c := range req.Contents {
		for _, p := range c.Parts {
			if fr := p.FunctionResponse; fr != nil {
				text := string(fr.Response)
				var resp struct {
					Output *string `json:"output"`
				}
				if json.Unmarshal(fr.Response, &resp) == nil && resp.Output != nil {
					text = *resp.Output
				}
				out[geminiKey(n)] = text
				if fr.ID != "" {
					out[fr.ID] = text
				}
				n++
			}
		}
	}
	return out
}

// geminiToolCallsSent returns the arguments of each function call of the
// request's model contents, by order ("#N") and by id when it has one.
func geminiToolCallsSent(body []byte) map[string]json.RawMessage {
	var req geminiRequest
	out := map[string]json.RawMessage{}
	if json.Unmarshal(body, &req) != nil {
		return out
	}
	n := 0
	for _, c := range req.Contents {
		for _, p := range c.Parts {
			if fc := p.FunctionCall; fc != nil {
				out[geminiKey(n)] = fc.Args
				if fc.ID != "" {
					out[fc.ID] = fc.Args
				}
				n++
			}
		}
	}
	return out
}

func geminiKey(n int) string { return "#" + strconv.Itoa(n) }

// zeroOf is the zero value of a JSON schema: an object with each of its
// properties zero, "" for a string, 0 for a number, false, [] or null.
func zeroOf(schema json.RawMessage) any {
	var sc struct {
		Type       any                        `json:"type"`
		Properties map[string]json.RawMessage `json:"properties"`
	}
	if json.Unmarshal(schema, &sc) != nil {
		return nil
	}
	typ, _ := sc.Type.(string)
	switch strings.ToLower(typ) {
	case "object":
		out := map[string]any{}
		for name, p := range sc.Properties {
			out[name] = zeroOf(p)
		}
		return out
	case "string":
		return ""
	case "number", "integer":
		return 0
	case "boolean":
		return false
	case "array":
		return []any{}
	}
	return nil
}
