package modeltest

// part is a piece of a scripted response: text, or a tool call.
type part struct {
	Text string
	Call *Call
}

// respond is the script's answer to a request of the conversation whose
// first user message is first, after assistants earlier responses of the
// model, offering the tools named in offered: the task's marker ("" for
// a conversation the script does not know, which gets a short answer), and
// the response's parts. Call ids start with idPrefix.
func (s *Server) respond(first string, assistants int, offered map[string]Tool, idPrefix string) (string, []part, error) {
	return s.respondTo([]string{first}, assistants, offered, idPrefix)
}

// respondTo is respond for a conversation whose user messages are users:
// its task is the one whose marker the earliest of them holds (an agent
// may send its environment before the prompt, as a user message).
func (s *Server) respondTo(users []string, assistants int, offered map[string]Tool, idPrefix string) (string, []part, error) {
	var t Task
	ok := false
	for _, u := range users {
		if t, ok = s.script.task(u); ok {
			break
		}
	}
	if !ok {
		return "", []part{{Text: "Done."}}, nil
	}
	if assistants >= len(t.Steps) {
		if c, ok := completion(t.Final, offered); ok {
			c.ID = nextID(idPrefix)
			return t.Marker, []part{{Call: &c}}, nil
		}
		return t.Marker, []part{{Text: t.Final}}, nil
	}
	st := t.Steps[assistants]
	var out []part
	if st.Say != "" {
		out = append(out, part{Text: st.Say})
	}
	for _, a := range st.Calls {
		c, err := s.script.resolve(a, offered)
		if err != nil {
			return t.Marker, nil, err
		}
		c.ID = nextID(idPrefix)
		if c.Search {
			// A tool search alone: the agent does not count it as a
			// turn, and the step comes again with the tools found.
			return t.Marker, []part{{Call: &c}}, nil
		}
		out = append(out, part{Call: &c})
	}
	return t.Marker, out, nil
}

// completion is the closing answer as a call of the tool that ends a
// subagent's run where the request offers one: Gemini CLI's subagents
// must call complete_task with their report, an object under result
// (the generalist's holds a response), or a text under another name.
func completion(final string, offered map[string]Tool) (Call, bool) {
	t, ok := offered["complete_task"]
	if !ok {
		return Call{}, false
	}
	if t.Params["result"] {
		return Call{Name: t.Name, Input: map[string]any{"result": map[string]any{"response": final}}}, true
	}
	for _, p := range []string{"response", "answer", "report"} {
		if t.Params[p] {
			return Call{Name: t.Name, Input: map[string]any{p: final}}, true
		}
	}
	return Call{Name: t.Name, Input: map[string]any{}}, true
}
