#!/usr/bin/env bash
# Runs the graphviz/ benchmarks behind docs/bench/graphviz.md: our layered
# layout against Graphviz dot on the same DAGs (time and crossings), the
# force layout, ego graphs and live-tail appends.
#
# Needs the dot and neato programs (Debian package graphviz); the dot
# benchmarks and the DOT validity tests skip without them. The 5,000-node
# dot runs take about a minute each, so dot runs once per graph.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v dot >/dev/null; then
	echo "bench-graphviz: dot not found; install the Debian package graphviz" >&2
	exit 1
fi
dot -V
go test -run '^$' -bench 'Layered|Force|Ego|IncrementalAppend' -count "${COUNT:-3}" ./graphviz/
go test -run '^$' -bench 'Dot' -benchtime 1x ./graphviz/
