#!/usr/bin/env bash
# Checks that the depguard rules of .golangci.yml catch what they are for:
# it plants, one at a time, a package that breaks a rule (the engine
# importing the app layer, graphviz importing the engine, an importer
# importing the store…), runs
# golangci-lint on it, and fails unless the lint fails naming depguard.
# Last, it plants a function just over funlen's limit and one at it. The
# planted package is removed whatever happens.
set -euo pipefail
cd "$(dirname "$0")/.."
lint="${GOLANGCI_LINT:-$(go env GOPATH)/bin/golangci-lint}"

plant() { # dir import
  local dir=$1 imp=$2
  mkdir -p "$dir"
  trap 'rm -rf "$dir"' RETURN
  printf 'package plant\n\nimport _ "%s"\n' "$imp" > "$dir/plant.go"
  local out
  if out=$("$lint" run "./$dir/..." 2>&1); then
    echo "lint-selftest: $dir importing $imp passed the lint" >&2
    return 1
  fi
  if ! grep -q depguard <<<"$out"; then
    echo "lint-selftest: $dir importing $imp failed the lint, but not by depguard:" >&2
    echo "$out" >&2
    return 1
  fi
  echo "lint-selftest: $dir importing $imp is caught by depguard"
}

plant engine/zzlintplant ctxscope/app
plant graphviz/zzlintplant ctxscope/engine/session
plant search/zzlintplant ctxscope/app
plant engine/session/zzlintplant ctxscope/engine/inputfile
plant engine/ingest/zzlintplant ctxscope/engine/store
plant engine/cwl/zzlintplant ctxscope/engine/store
plant engine/store/zzlintplant ctxscope/engine/cwl
plant engine/workspace/zzlintplant ctxscope/app
plant engine/memory/zzlintplant ctxscope/engine/store
plant engine/tokens/zzlintplant ctxscope/engine/cwl

# funlen: a function of 61 lines (signature to closing brace) fails the
# lint, one of 60 passes it.
plant_long() { # body-lines want
  local n=$1 want=$2 dir=engine/zzlintlong
  mkdir -p "$dir"
  trap 'rm -rf "$dir"' RETURN
  {
    printf 'package plant\n\n// Long is a planted function of %d lines.\nfunc Long() int {\n\tx := 0\n' "$n"
    for ((i = 0; i < n - 4; i++)); do printf '\tx++\n'; done
    printf '\treturn x\n}\n'
  } > "$dir/plant.go"
  local out status=0
  out=$("$lint" run "./$dir/..." 2>&1) || status=$?
  if [[ $want == fail && ( $status == 0 || $(grep -c funlen <<<"$out") == 0 ) ]]; then
    echo "lint-selftest: a function of $n lines was not caught by funlen" >&2
    echo "$out" >&2
    return 1
  fi
  if [[ $want == pass && $status != 0 ]]; then
    echo "lint-selftest: a function of $n lines failed the lint:" >&2
    echo "$out" >&2
    return 1
  fi
  echo "lint-selftest: a function of $n lines: lint $want, as it should"
}

plant_long 61 fail
plant_long 60 pass
