// Package memory is ctxscope's tri-layer memory for long conversations, in
// the manner of MemWeaver: a passage layer of raw turns, a graph layer of
// temporal triples linked to the passages they came from, and an
// experience layer of clustered turns summarised into typed items.
//
// The layers live in small packages below this one (kg, cluster, embed,
// temporal); this package ties them into a [Memory] per conversation,
// builds one from passages with an [Extractor], and declares the
// interfaces it consumes but does not implement, such as [Lexical], the
// full-text index that package search/lexical provides with Bleve.
package memory
