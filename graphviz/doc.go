// Package graphviz lays out and draws the two graphs ctxscope shows: the
// episode DAG of a session and the knowledge graph of a memory.
//
// It owns its input types ([Graph], [Node], [Edge]) and imports no other
// ctxscope package; the app adapts sessions and memories to them.
//
// # Layouts
//
// [Layered] is a Sugiyama layout for directed graphs: cycles are broken,
// nodes are ranked (network simplex, longest path, or in time order),
// long edges are split by virtual nodes, crossings are reduced by median
// sweeps with transposition, and x coordinates are assigned with the
// Brandes–Köpf method. [Incremental] keeps a layered layout stable while
// nodes are appended. [Force] is a ForceAtlas2-style force-directed
// layout with a Barnes–Hut approximation for knowledge graphs, and
// [EgoIndex.Ego] cuts the k-hop neighbourhood of a node out of a large graph.
//
// # Export
//
// [WriteDOT] writes deterministic Graphviz DOT (nodes, edges and attributes
// sorted) and [WriteSVG] a standalone SVG document. Node and edge
// attributes are free-form: the keys "kind" and "state" pick a style, and
// every attribute is exported so that eviction states and times travel
// with the picture. [ReadPlain] reads Graphviz's "plain" output, so that
// layouts made by the dot program can be compared with ours
// ([CountCrossings]).
//
// All coordinates are in points (1/72 inch), with y growing downwards.
package graphviz
