package serve

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"reflect"
)

// maxCallBody caps a call's arguments. Calls carry ids, names and numbers,
// never session content.
const maxCallBody = 1 << 20

var errorType = reflect.TypeOf((*error)(nil)).Elem()

// rpc calls bound methods by name, the way the Wails runtime does for the
// desktop window: every exported method of each bound struct, by struct
// name and method name.
type rpc struct {
	methods map[string]map[string]reflect.Value
}

func newRPC(bindings []any) (*rpc, error) {
	r := &rpc{methods: map[string]map[string]reflect.Value{}}
	for _, b := range bindings {
		v := reflect.ValueOf(b)
		if v.Kind() != reflect.Pointer || v.Elem().Kind() != reflect.Struct {
			return nil, fmt.Errorf("serve: binding %T is not a pointer to a struct", b)
		}
		name := v.Elem().Type().Name()
		ms := map[string]reflect.Value{}
		for i := 0; i < v.NumMethod(); i++ {
			ms[v.Type().Method(i).Name] = v.Method(i)
		}
		r.methods[name] = ms
	}
	return r, nil
}

// call decodes args for the method and invokes it. A method's results are
// (T, error), (T), (error) or nothing, as Wails allows.
func (r *rpc) call(service, method string, body io.Reader) (any, int, error) {
	m, ok := r.methods[service][method]
	if !ok {
		return nil, http.StatusNotFound, fmt.Errorf("no method %s.%s", service, method)
	}
	var raw []json.RawMessage
	if err := json.NewDecoder(io.LimitReader(body, maxCallBody)).Decode(&raw); err != nil && !errors.Is(err, io.EOF) {
		return nil, http.StatusBadRequest, fmt.Errorf("arguments must be a JSON array: %v", err)
	}
	t := m.Type()
	if len(raw) != t.NumIn() {
		return nil, http.StatusBadRequest, fmt.Errorf("%s.%s takes %d argument(s), got %d", service, method, t.NumIn(), len(raw))
	}
	args := make([]reflect.Value, len(raw))
	for i, a := range raw {
		p := reflect.New(t.In(i))
		if err := json.Unmarshal(a, p.Interface()); err != nil {
			return nil, http.StatusBadRequest, fmt.Errorf("argument %d of %s.%s: %v", i+1, service, method, err)
		}
		args[i] = p.Elem()
	}
	out := m.Call(args)
	if n := len(out); n > 0 && t.Out(n-1) == errorType {
		if err, _ := out[n-1].Interface().(error); err != nil {
			return nil, http.StatusUnprocessableEntity, err
		}
		out = out[:n-1]
	}
	if len(out) == 0 {
		return nil, http.StatusOK, nil
	}
	return out[0].Interface(), http.StatusOK, nil
}

func (s *Server) handleCall(w http.ResponseWriter, r *http.Request) {
	result, status, err := s.rpc.call(r.PathValue("service"), r.PathValue("method"), r.Body)
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	if err != nil {
		enc.Encode(map[string]string{"error": err.Error()})
		return
	}
	enc.Encode(result)
}
