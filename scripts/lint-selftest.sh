#!/usr/bin/env bash
# Checks that the depguard rules of .golangci.yml catch what they are for:
# it plants, one at a time, a package that breaks a rule (the engine
# importing the app layer, graphviz importing the engine, an importer
# importing the store…), runs
# golangci-lint on it, and fails unless the lint fails naming depguard.
# The planted package is removed whatever happens.
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
