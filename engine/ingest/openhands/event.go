package openhands

import "encoding/json"

// event is one OpenHands event. Its extras and the model response's
// input are deliberately not decoded beyond what normalization needs.
type event struct {
	ID          json.Number     `json:"id"`
	Timestamp   string          `json:"timestamp"`
	Source      string          `json:"source"`
	Message     string          `json:"message"`
	Action      string          `json:"action"`
	Observation string          `json:"observation"`
	Args        json.RawMessage `json:"args"`
	Content     string          `json:"content"`
	ToolCall    *struct {
		FunctionName  string         `json:"function_name"`
		ToolCallID    string         `json:"tool_call_id"`
		ModelResponse *modelResponse `json:"model_response"`
	} `json:"tool_call_metadata"`
}

// modelResponse is the part of an OpenAI ChatCompletion that matters.
type modelResponse struct {
	ID      string `json:"id"`
	Model   string `json:"model"`
	Choices []struct {
		Message struct {
			Content   json.RawMessage `json:"content"`
			Reasoning string          `json:"reasoning_content"`
			ToolCalls []struct {
				ID       string `json:"id"`
				Function struct {
					Name      string          `json:"name"`
					Arguments json.RawMessage `json:"arguments"`
				} `json:"function"`
			} `json:"tool_calls"`
		} `json:"message"`
	} `json:"choices"`
	Usage *struct {
		Prompt     int `json:"prompt_tokens"`
		Completion int `json:"completion_tokens"`
		Details    *struct {
			Cached int `json:"cached_tokens"`
		} `json:"prompt_tokens_details"`
	} `json:"usage"`
}

// args is the part of an action's arguments that becomes message text.
type args struct {
	Content string `json:"content"`
	Thought string `json:"thought"`
}
