package extract

import (
	"strings"
	"sync"

	"github.com/jdkato/prose/v2"
)

// tagged is a word with its Penn Treebank part-of-speech tag.
type tagged struct {
	text, tag string
}

var (
	taggerOnce  sync.Once
	taggerModel *prose.Model
	// taggerMu serialises tagging: prose does not say its model is safe
	// for concurrent use.
	taggerMu sync.Mutex
)

// tagSentence tags one sentence with prose's averaged-perceptron tagger
// (trained on the Penn Treebank). The model loads once per process, a
// few hundred milliseconds; a sentence then takes well under a
// millisecond. Bytes that are not UTF-8 are replaced first: prose's
// tokenizer slices out of range on some of them ("\xfa\xfa'm").
func tagSentence(s string) []tagged {
	taggerOnce.Do(func() { taggerModel = prose.ModelFromData("ctxscope") })
	taggerMu.Lock()
	defer taggerMu.Unlock()
	doc, err := prose.NewDocument(strings.ToValidUTF8(s, "\uFFFD"), prose.UsingModel(taggerModel), prose.WithSegmentation(false), prose.WithExtraction(false))
	if err != nil {
		return nil
	}
	toks := doc.Tokens()
	out := make([]tagged, len(toks))
	for i, t := range toks {
		out[i] = tagged{text: t.Text, tag: t.Tag}
	}
	return out
}
