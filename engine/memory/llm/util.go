package llm

import "encoding/json"

// fields is a decoded JSON object whose values are still raw.
type fields = map[string]json.RawMessage

func unmarshal(raw json.RawMessage, v any) error { return json.Unmarshal(raw, v) }
