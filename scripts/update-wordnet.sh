#!/usr/bin/env bash
# Writes engine/memory/extract/morph/wordnet.gz from Debian's wordnet-base
# (WordNet 3.0, Princeton University; licence in the same folder): the
# single-word lemmas of nouns and verbs and the two exception lists, which
# are all WordNet's morphy needs to lemmatise. The file is committed; run
# this only to regenerate it.
set -euo pipefail
cd "$(dirname "$0")/.."
wn=/usr/share/wordnet
[ -r "$wn/index.verb" ] || { echo "update-wordnet: install wordnet-base first (apt-get install wordnet-base)" >&2; exit 1; }
out=engine/memory/extract/morph/wordnet.gz
{
  for pos in noun verb; do
    echo "#lemmas $pos"
    grep -v '^ ' "$wn/index.$pos" | cut -d' ' -f1 | grep -v '_' | LC_ALL=C sort -u
    echo "#exceptions $pos"
    grep -v '_' "$wn/$pos.exc" | cut -d' ' -f1,2
  done
} | gzip -9n > "$out"
echo "update-wordnet: wrote $out ($(wc -c < "$out") bytes)"
