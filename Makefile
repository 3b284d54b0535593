# ctxscope: `make run` opens the app on the demo; `make test` runs every
# test. Both install what they need first (see scripts/setup.sh).

SHELL      := /bin/bash
GOBIN      := $(shell go env GOPATH)/bin
WAILS      := $(GOBIN)/wails
BIN        := build/bin/ctxscope
ARTIFACTS  := artifacts
VERSION    ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)

.PHONY: run build test bench setup-build setup-test setup-bench \
        test-go test-agents test-frontend test-e2e test-desktop check-bindings lint clean

## run: build the app and open it on the demo workspace (build/demo-workspace,
## seeded with the bundled demo session on first use)
DEMO_WORKSPACE ?= build/demo-workspace
run: build
	$(BIN) --workspace $(DEMO_WORKSPACE) $(RUN_ARGS)

## build: the desktop binary at build/bin/ctxscope (also runs headless)
build: setup-build
	$(WAILS) build -m -nosyncgomod -skipbindings -ldflags "-X main.version=$(VERSION)"

## test: the bindings and layering checks, Go tests, frontend unit tests and
## type checks, browser end-to-end tests against serve mode, and the
## desktop smoke test under Xvfb
test: setup-test build check-bindings lint test-go test-frontend test-e2e test-desktop

## check-bindings: the committed TypeScript bindings are what the Go services
## declare (app/bindings_test.go), and the frontend type-checks against them
check-bindings:
	go test -count=1 -run '^TestBindingsAreCurrent$$' ./app
	cd frontend && npm run check

## lint: golangci-lint with the depguard rules of .golangci.yml (the layering
## the README draws), then a check that a planted violation of each is caught
lint:
	$(GOBIN)/golangci-lint run ./...
	scripts/lint-selftest.sh

# The store's suite and the memory tables' run again on PostgreSQL: a
# throwaway server that the tests start in a temporary directory
# (engine/store/pgtest).
STORE_PKGS := ./engine/store/... ./engine/memory/memstore

# Every package's tests run once, under the race detector. The memory
# engine's tests need the word vectors that setup fetches;
# CTXSCOPE_REQUIRE_EMBEDDINGS makes them fail rather than skip without.
test-go:
	go vet ./...
	CTXSCOPE_REQUIRE_EMBEDDINGS=1 CTXSCOPE_BIN=$(abspath $(BIN)) go test -race -count=1 ./...
	CTXSCOPE_TEST_STORE=postgres go test -count=1 $(STORE_PKGS)

## test-agents: only the tests that run the real agent CLIs of
## scripts/agents.txt against the tests' model server (part of test-go)
test-agents: setup-test
	go test -count=1 -v ./engine/ingest/realagents/

test-frontend:
	cd frontend && npm run check && npm test

test-e2e: | $(ARTIFACTS)
	CTXSCOPE_BIN=$(abspath $(BIN)) CTXSCOPE_ARTIFACTS=$(abspath $(ARTIFACTS)) node --test --test-concurrency=1 frontend/e2e/browser/

test-desktop: | $(ARTIFACTS)
	CTXSCOPE_BIN=$(abspath $(BIN)) CTXSCOPE_ARTIFACTS=$(abspath $(ARTIFACTS)) \
	  xvfb-run -a -s "-screen 0 1400x900x24" node --test --test-concurrency=1 frontend/e2e/desktop/

## bench: run the benchmarks and write docs/BENCHMARKS.md
bench: setup-bench
	scripts/bench.sh

setup-build:
	@scripts/setup.sh build
setup-test:
	@scripts/setup.sh test
setup-bench:
	@scripts/setup.sh bench

$(ARTIFACTS):
	mkdir -p $@

clean:
	rm -rf build/bin $(ARTIFACTS) frontend/node_modules
