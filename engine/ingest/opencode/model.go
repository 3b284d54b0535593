package opencode

import "encoding/json"

// sessionInfo is a session's own record.
type sessionInfo struct {
	ID        string `json:"id"`
	ProjectID string `json:"projectID"`
	ParentID  string `json:"parentID"`
	Title     string `json:"title"`
	Directory string `json:"directory"`
	Version   string `json:"version"`
	Time      struct {
		Created int64 `json:"created"`
	} `json:"time"`
}

// messageInfo is a message's record.
type messageInfo struct {
	ID       string          `json:"id"`
	Role     string          `json:"role"`
	ParentID string          `json:"parentID"`
	ModelID  string          `json:"modelID"`
	Provider string          `json:"providerID"`
	Summary  json.RawMessage `json:"summary"` // true on a compaction's summary; an object on user messages
	Tokens   *tokens         `json:"tokens"`
	Cost     json.RawMessage `json:"cost"` // a number; an object in some versions
	Error    *struct {
		Name string `json:"name"`
	} `json:"error"`
	Time struct {
		Created int64 `json:"created"`
	} `json:"time"`
	Model *struct {
		ModelID    string `json:"modelID"`
		ProviderID string `json:"providerID"`
	} `json:"model"`
}

// tokens is OpenCode's usage of a call.
type tokens struct {
	Input     int `json:"input"`
	Output    int `json:"output"`
	Reasoning int `json:"reasoning"`
	Cache     struct {
		Read  int `json:"read"`
		Write int `json:"write"`
	} `json:"cache"`
}

// partInfo is a part's record.
type partInfo struct {
	ID        string          `json:"id"`
	MessageID string          `json:"messageID"`
	Type      string          `json:"type"`
	Text      string          `json:"text"`
	Synthetic bool            `json:"synthetic"`
	Tool      string          `json:"tool"`
	CallID    string          `json:"callID"`
	Filename  string          `json:"filename"`
	MIME      string          `json:"mime"`
	Tokens    *tokens         `json:"tokens"`
	Cost      json.RawMessage `json:"cost"`
	State     *struct {
		Status string          `json:"status"`
		Input  json.RawMessage `json:"input"`
		Output string          `json:"output"`
		Error  string          `json:"error"`
	} `json:"state"`
	Time struct {
		Start int64 `json:"start"`
	} `json:"time"`
}

// message is a message with its parts, in order.
type message struct {
	info  messageInfo
	parts []partInfo
	line  int // where the message was read: its record number
}
