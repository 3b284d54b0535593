package locomo

import "ctxscope/engine/memory"

// Passages returns the conversation's turns as passages, in order. As in
// the reference loader, an image turn gets its caption as a prefix only
// when it has both an image url and a caption.
func (c *Conversation) Passages() []memory.Passage {
	var out []memory.Passage
	for _, s := range c.Sessions {
		for _, t := range s.Turns {
			text := t.Text
			if t.ImgURL != "" && t.Caption != "" {
				text = "[Image: " + t.Caption + "] " + text
			}
			out = append(out, memory.Passage{
				ID: t.DiaID, Session: s.N, Speaker: t.Speaker,
				Text: text, Time: s.Time, Stamp: s.Stamp,
			})
		}
	}
	return out
}

// Turns returns the number of turns in the conversation.
func (c *Conversation) Turns() int {
	n := 0
	for _, s := range c.Sessions {
		n += len(s.Turns)
	}
	return n
}
