package pi

import (
	"fmt"

	"github.com/valyala/fastjson"

	"ctxscope/engine/ingest/internal/norm"
)

// Records are parsed once with fastjson (encoding/json validated and
// re-scanned each nested value, which made large tool outputs cost several
// passes) and read into these structs through [fields], which reports the
// first field of the wrong JSON type.

// entryRecord is one line of a session file. Fields of every entry type
// share the struct; which ones are set depends on Type.
type entryRecord struct {
	Type      string
	ID        *string
	ParentID  *string
	Timestamp string

	// session header
	Version       int
	CWD           string
	Provider      string
	ModelID       string
	ThinkingLevel string

	// message
	Message *fastjson.Value

	// compaction and branch_summary
	Summary             string
	FirstKeptEntryID    string
	FirstKeptEntryIndex *int
	TokensBefore        int
	FromID              string

	// custom and custom_message
	CustomType string
	Content    *fastjson.Value

	// label and session_info
	TargetID string
	Label    *string
	Name     *string
}

// readRecord reads a parsed line.
func readRecord(v *fastjson.Value) (entryRecord, error) {
	if v.Type() != fastjson.TypeObject {
		return entryRecord{}, fmt.Errorf("expected a JSON object, got JSON %s", v.Type())
	}
	f := fields{v: v}
	r := entryRecord{
		Type: f.str("type"), ID: f.optStr("id"), ParentID: f.optStr("parentId"), Timestamp: f.str("timestamp"),
		Version: f.int("version"), CWD: f.str("cwd"), Provider: f.str("provider"), ModelID: f.str("modelId"),
		ThinkingLevel: f.str("thinkingLevel"), Message: f.value("message"),
		Summary: f.str("summary"), FirstKeptEntryID: f.str("firstKeptEntryId"), FirstKeptEntryIndex: f.optInt("firstKeptEntryIndex"),
		TokensBefore: f.int("tokensBefore"), FromID: f.str("fromId"),
		CustomType: f.str("customType"), Content: f.value("content"),
		TargetID: f.str("targetId"), Label: f.optStr("label"), Name: f.optStr("name"),
	}
	return r, f.err
}

// fields reads typed members of a JSON object. A member that is absent or
// null reads as the zero value; one of another type also does, and the
// first such mismatch is kept in err.
type fields struct {
	v   *fastjson.Value
	err error
}

func (f *fields) get(key string, want fastjson.Type, name string) *fastjson.Value {
	x := f.v.Get(key)
	if x == nil || x.Type() == fastjson.TypeNull {
		return nil
	}
	if x.Type() != want && !(want == fastjson.TypeTrue && x.Type() == fastjson.TypeFalse) {
		if f.err == nil {
			f.err = fmt.Errorf("field %q: expected %s, got JSON %s", key, name, x.Type())
		}
		return nil
	}
	return x
}

func (f *fields) str(key string) string {
	if p := f.optStr(key); p != nil {
		return *p
	}
	return ""
}

func (f *fields) optStr(key string) *string {
	x := f.get(key, fastjson.TypeString, "string")
	if x == nil {
		return nil
	}
	s := norm.FastJSONString(x.GetStringBytes())
	return &s
}

func (f *fields) int(key string) int {
	if p := f.optInt(key); p != nil {
		return *p
	}
	return 0
}

func (f *fields) optInt(key string) *int {
	x := f.get(key, fastjson.TypeNumber, "number")
	if x == nil {
		return nil
	}
	n := int(x.GetFloat64())
	return &n
}

func (f *fields) float(key string) float64 {
	if x := f.get(key, fastjson.TypeNumber, "number"); x != nil {
		return x.GetFloat64()
	}
	return 0
}

func (f *fields) bool(key string) bool {
	x := f.get(key, fastjson.TypeTrue, "boolean")
	return x != nil && x.Type() == fastjson.TypeTrue
}

func (f *fields) object(key string) *fastjson.Value {
	return f.get(key, fastjson.TypeObject, "object")
}

// value returns any non-null member.
func (f *fields) value(key string) *fastjson.Value {
	x := f.v.Get(key)
	if x == nil || x.Type() == fastjson.TypeNull {
		return nil
	}
	return x
}

// raw returns a member as JSON text (a fresh copy), nil when absent or null.
func raw(x *fastjson.Value) []byte {
	if x == nil || x.Type() == fastjson.TypeNull {
		return nil
	}
	return x.MarshalTo(nil)
}
