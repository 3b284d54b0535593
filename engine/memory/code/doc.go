// Package code reads an imported agent session (any format engine/ingest
// reads) into a tri-layer memory of the work it did: the passage layer
// holds every block (prose, thinking, tool calls, tool results) cut into
// chunks with their provenance; the graph layer holds what the tool calls
// and their results say happened, as typed entities (task, file, symbol,
// command, test, package, error, URL, issue) and relations (read,
// searched, edited, created, ran, failed-with, arose-in, fixed-by,
// tested-by, defines, depends-on, installed, fetched, cites, refers-to),
// each stamped with the time of its entry.
//
// The subject of a relation is never a speaker: work is attributed to the
// task it served (the user turn that asked for it), and facts about code
// to the file or command they concern. Nothing is read from capitalised
// words of prose; prose is kept as passages and linked to the entities it
// names.
//
// A [Reader] takes entries one at a time, so a live-tailed session's
// memory grows as its records arrive.
package code
