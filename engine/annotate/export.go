package annotate

import (
	"encoding/csv"
	"encoding/json"
	"io"
	"strconv"
	"time"
)

// Row is one exported mark, with the question and item it judges.
type Row struct {
	Scope      string    `json:"scope"`
	QuestionID string    `json:"question_id"`
	Question   string    `json:"question"`
	Item       string    `json:"item"`      // "" for the whole context
	ItemKind   string    `json:"item_kind"` // passage, triple, experience or context
	ItemText   string    `json:"item_text"`
	Annotator  string    `json:"annotator"`
	Helpful    *bool     `json:"helpful"`
	Sufficient *bool     `json:"sufficient"`
	Notes      string    `json:"notes"`
	Time       time.Time `json:"time"`
}

// WriteJSONL writes one JSON object per row and line.
func WriteJSONL(w io.Writer, rows []Row) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	for _, r := range rows {
		if err := enc.Encode(r); err != nil {
			return err
		}
	}
	return nil
}

// CSVHeader is the first line of WriteCSV's output.
var CSVHeader = []string{"scope", "question_id", "question", "item", "item_kind", "item_text", "annotator", "helpful", "sufficient", "notes", "time"}

// WriteCSV writes the rows as RFC 4180 CSV with a header. A judgement not
// made is an empty field.
func WriteCSV(w io.Writer, rows []Row) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(CSVHeader); err != nil {
		return err
	}
	for _, r := range rows {
		rec := []string{r.Scope, r.QuestionID, r.Question, r.Item, r.ItemKind, r.ItemText, r.Annotator,
			optBool(r.Helpful), optBool(r.Sufficient), r.Notes, r.Time.UTC().Format(time.RFC3339)}
		if err := cw.Write(rec); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

func optBool(b *bool) string {
	if b == nil {
		return ""
	}
	return strconv.FormatBool(*b)
}
