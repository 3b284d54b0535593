#!/bin/sh
# Writes the recovery table of docs/bench/session-memory.md: for each
# shared real session and τ, `ctxscope replay --memory 500 --json`, one row.
# Usage: scripts/session-memory-table.sh CTXSCOPE_BINARY > rows.md
set -eu
bin=$1
data=testdata/shared/sessions
row() { # name file tau [thread]
  name=$1 file=$2 tau=$3 thread=${4:-}
  "$bin" replay --budget "$tau" --memory 500 --json ${thread:+--thread "$thread"} "$data/$file" | python3 -c '
import json, sys
name, tau = sys.argv[1], int(sys.argv[2])
d = json.load(sys.stdin)
v = d["memory"]; r = v["recall"]
def rate(s):
    return "–" if r["lookBacks"] == 0 else "%.2f (%d)" % (s["rate"], s["recovered"])
print("| %s | %s | %d | %d | %d | %s | %s | %s | %s | %d | %d | %d | %s |" % (name, format(tau, ","), d["summary"]["requests"] if "requests" in d["summary"] else len(d["timeline"]["requests"]),
  r["lookBacks"], r["skipped"], rate(r["memory"]), format(r["memory"]["tokens"], ","), rate(r["bm25"]), format(r["bm25"]["tokens"], ","),
  v["paperLookBacks"], v["reservedLookBacks"], v["avoided"], format(v["tokensAdded"], ",")))
' "$name" "$tau"
}
echo "| session | τ | requests | look-backs | not in memory | memory recovered | memory tokens | BM25 recovered | BM25 tokens | paper look-backs at τ | at τ−B | avoided | tokens injected |"
echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|"
for tau in 20000 40000 80000; do row pi-cwl__before-compaction pi/pi-cwl__before-compaction.jsonl $tau; done
for tau in 20000 40000 80000; do row pi-cwl__large-session pi/pi-cwl__large-session.jsonl $tau; done
for tau in 5000 10000; do row "claude-code-viewer__fe5e1c67 main thread" claude-code/claude-code-viewer__fe5e1c67-53e7-4862-81ae-d0e013e3270b.jsonl $tau; done
for tau in 10000 20000; do row "claude-code-viewer__fe5e1c67 subagent thread 5" claude-code/claude-code-viewer__fe5e1c67-53e7-4862-81ae-d0e013e3270b.jsonl $tau 5; done
row "codex rollout (synthetic)" codex/claude-code-log__rollout-2026-01-02-synthetic.jsonl 600
row "openhands multi_swe_bench example" openhands/openhands__multi_swe_bench-example-output.jsonl 3000
row "swe-agent pydicom-1458" swe-agent/swe-agent__gpt4-default__pydicom-1458.traj 3000
