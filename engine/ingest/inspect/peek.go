package inspect

import (
	"bufio"
	"io"
)

func bufioPeek(r io.Reader) *bufio.Reader {
	if br, ok := r.(*bufio.Reader); ok {
		return br
	}
	return bufio.NewReader(r)
}
