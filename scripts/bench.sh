#!/usr/bin/env bash
# Runs every Go benchmark once and writes docs/BENCHMARKS.md. The raw
# output is kept in artifacts/bench.txt. BENCHTIME (default 1s) and
# BENCH (a -bench regexp, default .) narrow a run.
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p artifacts docs
raw=artifacts/bench.txt
go test -run '^$' -bench "${BENCH:-.}" -benchmem -benchtime "${BENCHTIME:-1s}" -timeout 60m ./... | tee "$raw"
go run ./scripts/benchtable -title "ctxscope benchmarks" < "$raw" > docs/BENCHMARKS.md
for extra in docs/bench/*.md; do
  [ -f "$extra" ] || continue
  printf '\n' >> docs/BENCHMARKS.md
  cat "$extra" >> docs/BENCHMARKS.md
done
echo "wrote docs/BENCHMARKS.md"
