package session

import "fmt"

// Severity grades a diagnostic.
type Severity string

// Severities. An error means a record was skipped; a warning means it was
// imported but something in it was wrong or ambiguous.
const (
	SeverityError   Severity = "error"
	SeverityWarning Severity = "warning"
)

// Diagnostic is a problem found in a source file, with its location.
type Diagnostic struct {
	File     string   `json:"file"`
	Line     int      `json:"line"` // 1-based; 0 when the problem concerns the whole file
	Severity Severity `json:"severity"`
	Message  string   `json:"message"`
}

// String formats the diagnostic as "file:line: severity: message".
func (d Diagnostic) String() string {
	if d.Line > 0 {
		return fmt.Sprintf("%s:%d: %s: %s", d.File, d.Line, d.Severity, d.Message)
	}
	return fmt.Sprintf("%s: %s: %s", d.File, d.Severity, d.Message)
}

// Errors counts the diagnostics of severity error.
func Errors(ds []Diagnostic) int {
	n := 0
	for _, d := range ds {
		if d.Severity == SeverityError {
			n++
		}
	}
	return n
}
