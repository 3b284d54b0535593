// Package recipe is how ctxscope builds a memory, in one place for the
// app's memory service and the command line: which builder an extractor
// name stands for ([Spec.Builder]) and what a memory is built from
// ([Source]: a LoCoMo conversation's turns, or an agent session read from
// its tool use).
package recipe
