package search

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"

	"github.com/blevesearch/bleve/v2/analysis/analyzer/custom"
	"github.com/blevesearch/bleve/v2/analysis/lang/en"
	"github.com/blevesearch/bleve/v2/analysis/token/lowercase"
	"github.com/blevesearch/bleve/v2/mapping"
)

// Field names of an indexed document.
const (
	FieldKind    = "kind"
	FieldSession = "session"
	FieldThread  = "thread"
	FieldEntry   = "entry"
	FieldLine    = "line"
	FieldRole    = "role"
	FieldTool    = "tool"
	FieldEpisode = "episode"
	FieldSpeaker = "speaker"
	FieldSet     = "set"
	// FieldDialogSession is a memory document's conversation session.
	FieldDialogSession = "dsession"
	FieldTime          = "time"
	FieldText          = "text"    // prose: English analyzer
	FieldCode          = "code"    // the same text, code-aware analyzer
	FieldContent       = "content" // the same text, stored for fragments, not indexed
)

// Analyzer names: the code-aware analyzer, and its query-time form.
const (
	codeAnalyzer      = "ctxscope_code"
	codeQueryAnalyzer = "ctxscope_code_query"
)

// analysisVersion changes whenever the code tokenizer's output changes;
// it is part of the mapping version, so that the index is rebuilt.
const analysisVersion = 3

// stateVersion changes whenever what a sync records of a session changes
// (version 2: whether it calls the delimiter tool); it is part of the
// mapping version, so that an index recorded otherwise is rebuilt.
const stateVersion = 2

// keywordFields are the exact-match fields that filters and facets use.
var keywordFields = []string{FieldKind, FieldSession, FieldThread, FieldEntry, FieldRole, FieldTool, FieldEpisode, FieldSpeaker, FieldSet, FieldDialogSession}

// newMapping builds the index mapping. There is no composite _all field
// (it would index every token twice): unfielded query terms search the
// code field, which every document has; the English field, which only
// prose documents have, is searched by name (text:running) or by plain
// mode.
func newMapping() (*mapping.IndexMappingImpl, error) {
	im := mapping.NewIndexMapping()
	for name, tok := range map[string]string{codeAnalyzer: CodeTokenizerName, codeQueryAnalyzer: CodeQueryTokenizerName} {
		err := im.AddCustomAnalyzer(name, map[string]any{
			"type":          custom.Name,
			"tokenizer":     tok,
			"token_filters": []any{lowercase.Name},
		})
		if err != nil {
			return nil, err
		}
	}
	im.DefaultAnalyzer = codeAnalyzer
	im.DefaultField = FieldCode
	im.StoreDynamic, im.IndexDynamic, im.DocValuesDynamic = false, false, false
	dm := mapping.NewDocumentMapping()
	dm.Dynamic = false
	for _, f := range keywordFields {
		fm := mapping.NewKeywordFieldMapping()
		fm.IncludeInAll, fm.IncludeTermVectors = false, false
		dm.AddFieldMappingsAt(f, fm)
	}
	line := mapping.NewNumericFieldMapping()
	line.Index, line.IncludeInAll, line.DocValues = false, false, false
	dm.AddFieldMappingsAt(FieldLine, line)
	tm := mapping.NewDateTimeFieldMapping()
	tm.IncludeInAll = false
	dm.AddFieldMappingsAt(FieldTime, tm)
	dm.AddFieldMappingsAt(FieldText, textField(en.AnalyzerName))
	dm.AddFieldMappingsAt(FieldCode, textField(codeAnalyzer))
	content := mapping.NewTextFieldMapping()
	content.Index, content.IncludeInAll, content.IncludeTermVectors, content.DocValues = false, false, false, false
	dm.AddFieldMappingsAt(FieldContent, content)
	im.DefaultMapping = dm
	return im, nil
}

// textField is an analysed, unstored field with term vectors, for
// phrases and highlighting.
func textField(analyzer string) *mapping.FieldMapping {
	fm := mapping.NewTextFieldMapping()
	fm.Analyzer = analyzer
	fm.Store, fm.DocValues, fm.IncludeInAll = false, false, false
	return fm
}

// MappingVersion identifies the mapping and analysis this build indexes
// with. An index built with another version is rebuilt.
func MappingVersion() (string, error) {
	im, err := newMapping()
	if err != nil {
		return "", err
	}
	b, err := json.Marshal(struct {
		Analysis int
		State    int
		Mapping  *mapping.IndexMappingImpl
	}{analysisVersion, stateVersion, im})
	if err != nil {
		return "", err
	}
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:8]), nil
}
