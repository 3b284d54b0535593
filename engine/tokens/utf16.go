package tokens

// UTF16Len returns the length of s in UTF-16 code units, the length
// JavaScript reports for the same text. Invalid UTF-8 bytes count one unit
// each, as the replacement character they decode to.
func UTF16Len(s string) int {
	n := 0
	for _, r := range s {
		if r >= 0x10000 {
			n += 2
		} else {
			n++
		}
	}
	return n
}
