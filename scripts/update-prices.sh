#!/usr/bin/env bash
# Vendors the model price catalog of @pydantic/genai-prices (MIT) into
# engine/pricing/catalog: the package's data as JSON, with its version and
# the date it was taken in SOURCE.json. The binary embeds that file, so
# pricing never touches the network. VERSION picks the package version.
set -euo pipefail
cd "$(dirname "$0")/.."
version="${VERSION:-0.1.8}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
(cd "$work" && npm pack --silent "@pydantic/genai-prices@$version" >/dev/null && tar xzf ./*.tgz)
out=engine/pricing/catalog
node scripts/genai-prices-extract.mjs "$work/package/dist/index.js" > "$out/genai-prices.json"
cat > "$out/SOURCE.json" <<JSON
{
  "package": "@pydantic/genai-prices",
  "version": "$version",
  "licence": "MIT (Copyright (c) Pydantic Services Inc. 2025 to present)",
  "url": "https://www.npmjs.com/package/@pydantic/genai-prices",
  "taken": "$(date -u +%Y-%m-%d)"
}
JSON
echo "wrote $out/genai-prices.json ($(wc -c < "$out/genai-prices.json") bytes) from @pydantic/genai-prices@$version"
