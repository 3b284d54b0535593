package memory

import "time"

// Passage is one raw turn or message: the unit of the passage layer and
// the provenance every triple and experience item points back to.
type Passage struct {
	// ID is stable within its memory: a LoCoMo dialogue id such as "D1:3",
	// or a session entry id.
	ID string `json:"id"`
	// Session numbers the conversation session the passage belongs to,
	// from 1; 0 when the source has no sessions.
	Session int    `json:"session"`
	Speaker string `json:"speaker"`
	// Text is the passage as the model would see it. An image turn's
	// caption is prefixed as "[Image: caption] ", as the reference does.
	Text string `json:"text"`
	// Time is the absolute time of the passage (for LoCoMo the session's
	// date and time); zero when unknown.
	Time time.Time `json:"time"`
	// Stamp is the source's own rendering of the time, such as
	// "1:56 pm on 8 May, 2023"; empty when unknown.
	Stamp string `json:"stamp,omitempty"`
}
