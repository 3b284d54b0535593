// Package graphs adapts ctxscope's engine results to the graph types of
// package graphviz, for the command line, the desktop window and reports
// alike. It keeps graphviz free of engine imports.
package graphs
