#!/usr/bin/env bash
# Installs what a make target needs, idempotently: Debian packages, the
# Wails CLI at a pinned version, the frontend's npm packages and (for tests
# and benchmarks) the offline word vectors of the memory engine. Fast when
# everything is already there. Usage: scripts/setup.sh build|test|bench
set -euo pipefail
cd "$(dirname "$0")/.."

WAILS_VERSION=v2.16.0
GOLANGCI_LINT_VERSION=v2.15.0
GOBIN="$(go env GOPATH)/bin"

build_pkgs=(build-essential pkg-config libgtk-3-dev libwebkit2gtk-4.0-dev)
test_pkgs=(xvfb xauth xdotool imagemagick chromium fonts-liberation graphviz postgresql util-linux ripgrep)
bench_pkgs=(graphviz postgresql)

log() { printf 'setup: %s\n' "$*" >&2; }

# apt_install installs the Debian packages that are missing, as root or
# through sudo.
apt_install() {
  local missing=()
  for p in "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  local sudo=""
  [ "$(id -u)" -ne 0 ] && sudo="sudo"
  log "installing Debian packages: ${missing[*]}"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}

wails_cli() {
  if [ -x "$GOBIN/wails" ] && "$GOBIN/wails" version 2>/dev/null | grep -q "$WAILS_VERSION"; then
    return 0
  fi
  log "installing the Wails CLI $WAILS_VERSION"
  go install "github.com/wailsapp/wails/v2/cmd/wails@$WAILS_VERSION"
}

# golangci_lint installs the pinned golangci-lint that `make lint` runs.
golangci_lint() {
  if [ -x "$GOBIN/golangci-lint" ] && "$GOBIN/golangci-lint" version 2>/dev/null | grep -q "${GOLANGCI_LINT_VERSION#v}"; then
    return 0
  fi
  log "installing golangci-lint $GOLANGCI_LINT_VERSION"
  go install "github.com/golangci/golangci-lint/v2/cmd/golangci-lint@$GOLANGCI_LINT_VERSION"
}

# npm_packages runs npm ci when node_modules is missing or older than the
# lock file.
npm_packages() {
  local marker=frontend/node_modules/.package-lock.json
  if [ -f "$marker" ] && [ "$marker" -nt frontend/package-lock.json ]; then
    return 0
  fi
  log "installing frontend packages (npm ci)"
  (cd frontend && npm ci --no-audit --no-fund --loglevel=error)
}

# agent_clis installs, each into .cache/agents/NAME, the agent CLIs of
# scripts/agents.txt at their pinned versions: the real-agent tests run
# them against a model server of their own.
agent_clis() {
  local name pkg version dir
  while read -r name pkg version; do
    case "$name" in ''|'#'*) continue ;; esac
    dir=".cache/agents/$name"
    if [ -f "$dir/node_modules/$pkg/package.json" ] &&
       grep -q "\"version\": *\"$version\"" "$dir/node_modules/$pkg/package.json"; then
      continue
    fi
    log "installing the agent CLI $pkg@$version"
    mkdir -p "$dir"
    (cd "$dir" && npm install --save-exact --no-audit --no-fund --loglevel=error "$pkg@$version" >/dev/null)
  done < scripts/agents.txt
}

# otel_clients installs the OpenTelemetry clients the OTLP receiver's
# tests run (app/serve), at the versions of scripts/otel-clients'
# package-lock.json, when they are missing or the lock file changed.
otel_clients() {
  local dir=scripts/otel-clients
  if [ -d "$dir/node_modules" ] && [ "$dir/node_modules/.package-lock.json" -nt "$dir/package-lock.json" ]; then
    return
  fi
  log "installing the OpenTelemetry clients (npm ci in $dir)"
  (cd "$dir" && npm ci --no-audit --no-fund --loglevel=error)
}

case "${1:-build}" in
  build)
    apt_install "${build_pkgs[@]}"
    wails_cli
    npm_packages
    scripts/fetch-embeddings.sh >&2
    ;;
  test)
    apt_install "${build_pkgs[@]}" "${test_pkgs[@]}"
    wails_cli
    golangci_lint
    npm_packages
    agent_clis
    otel_clients
    scripts/fetch-embeddings.sh >&2
    ;;
  bench)
    apt_install "${build_pkgs[@]}" "${bench_pkgs[@]}"
    wails_cli
    npm_packages
    scripts/fetch-embeddings.sh >&2
    ;;
  *)
    echo "usage: $0 build|test|bench" >&2
    exit 2
    ;;
esac
