package app

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"sort"
)

// boundMethods lists, by service, every method the frontend may call,
// through the desktop window's Bridge or serve mode's App.Invoke, and
// nothing else. A service exports exactly these, so that an exported
// method is a bound one: TestBoundMethodsAreExplicit fails when an
// exported method is missing here or a listed one does not exist.
var boundMethods = map[string][]string{
	"Sessions": {"List", "Initial", "OpenPath", "Import", "OpenDialog", "OpenDemo", "Delete", "Open", "MarkSeen"},
	"UI":       {"Environment", "Rendered", "GuideSeen", "AtWork"},
	"Debugger": {"Policies", "Counters", "Threads", "Replay", "ReplayStep", "Context", "Block", "Wire", "Sweep", "ExportReplay", "ExportTimelineSVG",
		"SaveTimelineSVG", "SaveReplay", "SaveGraph", "Graph", "Search", "Locate", "Memory", "MemoryVariants", "LocatePassage"},
	"Live": {"Discovery", "SetDiscovery", "Proxy", "SetProxy", "SetLiveEviction", "Follow", "Unfollow", "Following"},
	"Memory": {"List", "Info", "Delete", "Graph", "Timeline", "Entity", "FindEntities", "Merge", "Undo", "Experiences",
		"Passage", "Build", "Cancel", "Job", "LLMSettings", "SetLLMSettings", "Import", "Questions", "Retrieve", "Search"},
	"Annotations": {"Annotator", "SetAnnotator", "Queue", "AddLoCoMo", "AddCustom", "Remove", "Task", "Mark", "Marks",
		"Agreement", "Export"},
}

// BoundMethods returns the names of the methods the frontend may call, as
// "Service.Method", sorted.
func BoundMethods() []string {
	var out []string
	for svc, ms := range boundMethods {
		for _, m := range ms {
			out = append(out, svc+"."+m)
		}
	}
	sort.Strings(out)
	return out
}

// ErrNoMethod is returned by [App.Invoke] for a name that is not a bound
// method.
var ErrNoMethod = errors.New("no such method")

// ArgumentError is returned by [App.Invoke] when the arguments do not fit
// the method.
type ArgumentError struct{ Method, Problem string }

func (e *ArgumentError) Error() string { return e.Method + ": " + e.Problem }

// Invoke calls a bound method by name with JSON-encoded arguments, as the
// desktop window's bindings do, and returns its result. It is how serve
// mode reaches the services: only the methods of [BoundMethods] answer.
// A call must come from a principal (WithPrincipal) whose role the access
// table allows the method, or it is refused with ErrForbidden. Methods
// that can run long (a replay, a sweep, a timeline) run under ctx: when
// ctx ends (the browser closed the request) their work stops and they
// return its error.
func (a *App) Invoke(ctx context.Context, service, method string, args []json.RawMessage) (any, error) {
	name := service + "." + method
	if _, ok := a.dispatch()[name]; !ok {
		return nil, fmt.Errorf("%w %s", ErrNoMethod, name) // before the principal: an unknown name is not a refusal
	}
	p, ok := principalOf(ctx)
	if !ok {
		return nil, fmt.Errorf("%w: %s: the call names no principal", ErrForbidden, name)
	}
	if err := authorize(p, name, args); err != nil {
		return nil, err
	}
	return a.call(ctx, service, method, args)
}

// call calls the bound method service.method with its JSON arguments,
// under ctx when the method takes a context first: [App.Invoke] after its
// checks, and the desktop window's [Bridge].
func (a *App) call(ctx context.Context, service, method string, args []json.RawMessage) (any, error) {
	name := service + "." + method
	fn, ok := a.dispatch()[name]
	if !ok {
		return nil, fmt.Errorf("%w %s", ErrNoMethod, name)
	}
	t := fn.Type()
	in := make([]reflect.Value, 0, t.NumIn())
	if t.NumIn() > 0 && t.In(0) == contextType {
		in = append(in, reflect.ValueOf(ctx))
	}
	if want := t.NumIn() - len(in); len(args) != want {
		return nil, &ArgumentError{name, fmt.Sprintf("takes %d argument(s), got %d", want, len(args))}
	}
	for i, raw := range args {
		p := reflect.New(t.In(len(in)))
		if err := json.Unmarshal(raw, p.Interface()); err != nil {
			return nil, &ArgumentError{name, fmt.Sprintf("argument %d: %v", i+1, err)}
		}
		in = append(in, p.Elem())
	}
	out := fn.Call(in)
	if n := len(out); n > 0 && t.Out(n-1) == errorType {
		if err, _ := out[n-1].Interface().(error); err != nil {
			return nil, err
		}
		out = out[:n-1]
	}
	if len(out) == 0 {
		return nil, nil
	}
	return out[0].Interface(), nil
}

var (
	contextType = reflect.TypeOf((*context.Context)(nil)).Elem()
	errorType   = reflect.TypeOf((*error)(nil)).Elem()
)

// dispatch maps each bound method's name to its method, which call calls.
func (a *App) dispatch() map[string]reflect.Value {
	a.dispatchOnce.Do(func() {
		a.dispatchTable = map[string]reflect.Value{}
		for _, b := range a.services() {
			v := reflect.ValueOf(b)
			svc := v.Elem().Type().Name()
			for _, m := range boundMethods[svc] {
				a.dispatchTable[svc+"."+m] = v.MethodByName(m)
			}
		}
	})
	return a.dispatchTable
}
