// Package annotate holds what human evaluation of retrieved evidence
// needs beyond storing the marks: the latest mark of each annotator on
// each item, the agreement between annotators (Cohen's kappa for two,
// Fleiss' kappa for more), the annotation queue of questions, and the
// export to JSONL and CSV. Marks themselves are store.Annotation rows in
// the workspace.
package annotate
