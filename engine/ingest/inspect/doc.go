// Package inspect imports Inspect AI evaluation logs: the .json log (one
// EvalLog object) and the .eval container (a zip of header.json and one
// samples/<id>_epoch_<n>.json per sample). Each sample is a session.
//
// A .json log is streamed: its samples array is read one sample at a
// time. Inspect stores large strings once, in a sample's attachments,
// and writes "attachment://<hash>" in their place; the importer puts the
// text back wherever such a reference stands for a whole string (message
// content, tool arguments, tool results). The usage of each model event
// is given to the assistant message it produced, matched by message id,
// or by order when the log has no ids.
package inspect
