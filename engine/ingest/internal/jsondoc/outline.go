package jsondoc

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"strconv"
)

// Outline reads a whole JSON document from r, token by token, and returns
// a small document of the same structure for detection to read: every
// key of the top-level value and of the values three levels down, arrays
// cut to their first element, strings longer than 200 bytes emptied. A
// document whose first 64 KiB are taken by one value (a trajectory whose
// info holds a 900 KB patch) is then told by all its keys, not by the
// first. Strings are read only as far as an outline keeps them
// (shortStrings), so memory is bounded by the longest key the outline
// writes; the outline by the keys.
func Outline(r io.Reader) ([]byte, error) {
	return outline(&shortStrings{r: bufio.NewReaderSize(r, 1<<16)})
}

// outline is Outline over r as it is.
func outline(r io.Reader) ([]byte, error) {
	dec := json.NewDecoder(r)
	dec.UseNumber()
	var out bytes.Buffer
	if err := outlineValue(dec, &out, 0); err != nil {
		return nil, err
	}
	return out.Bytes(), nil
}

// outlineDepth is how many levels of containers an outline keeps.
const outlineDepth = 4

// outlineValue writes the outline of the next value.
func outlineValue(dec *json.Decoder, out *bytes.Buffer, depth int) error {
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	switch v := tok.(type) {
	case json.Delim:
		if depth >= outlineDepth {
			if v == '{' {
				out.WriteString("{}")
			} else {
				out.WriteString("[]")
			}
			if !skipRest(dec, 1) {
				return io.ErrUnexpectedEOF
			}
			return nil
		}
		if v == '{' {
			return outlineObject(dec, out, depth)
		}
		return outlineArray(dec, out, depth)
	case string:
		if len(v) > 200 {
			v = ""
		}
		b, _ := json.Marshal(v)
		out.Write(b)
	case json.Number:
		out.WriteString(v.String())
	case bool:
		out.WriteString(strconv.FormatBool(v))
	case nil:
		out.WriteString("null")
	}
	return nil
}

func outlineObject(dec *json.Decoder, out *bytes.Buffer, depth int) error {
	out.WriteByte('{')
	for i := 0; dec.More(); i++ {
		tok, err := dec.Token()
		if err != nil {
			return err
		}
		key, _ := tok.(string)
		if i > 0 {
			out.WriteByte(',')
		}
		b, _ := json.Marshal(key)
		out.Write(b)
		out.WriteByte(':')
		if err := outlineValue(dec, out, depth+1); err != nil {
			return err
		}
	}
	if _, err := dec.Token(); err != nil { // '}'
		return err
	}
	out.WriteByte('}')
	return nil
}

func outlineArray(dec *json.Decoder, out *bytes.Buffer, depth int) error {
	out.WriteByte('[')
	if dec.More() {
		if err := outlineValue(dec, out, depth+1); err != nil {
			return err
		}
	}
	if !skipRest(dec, 1) {
		return io.ErrUnexpectedEOF
	}
	out.WriteByte(']')
	return nil
}
