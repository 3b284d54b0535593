package norm

import "unsafe"

// FastJSONString returns the bytes of a string that fastjson decoded as a
// Go string. A string longer than BigRecord is not copied: it can only
// come from a record longer than BigRecord, and the decoders drop the
// parser of such a record instead of parsing the next one in its room,
// so the parser's room becomes the string's. While a 200 MB text was
// stored it was held twice, in the parser's room and in its copy.
//
// Only the pi and Claude Code decoders, which drop their parser after a
// big record, or a parser used once, may call it.
func FastJSONString(b []byte) string {
	if len(b) <= BigRecord {
		return string(b)
	}
	return unsafe.String(unsafe.SliceData(b), len(b))
}
