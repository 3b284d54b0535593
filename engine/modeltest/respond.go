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
	t, ok := s.script.task(first)
	if !ok {
		return "", []part{{Text: "Done."}}, nil
	}
	if assistants >= len(t.Steps) {
		return t.Marker, []part{{Text: t.Final}}, nil
	}
	st := t.Steps[assistants]
	var out []part
	if st.Say != "" {
		out = append(out, part{Text: st.Say})
	}
	for _, a := range st.Calls {
		name, input, err := s.script.resolve(a, offered)
		if err != nil {
			return t.Marker, nil, err
		}
		out = append(out, part{Call: &Call{ID: nextID(idPrefix), Name: name, Input: input}})
	}
	return t.Marker, out, nil
}
