# streamgate — see README.md. `make test` is the test command CI runs.
GO        ?= go
TOOLS     := $(CURDIR)/.tools/bin
FUZZTIME  ?= 60s
# make test fuzzes each target for a count of executions, not a duration:
# under load Go 1.26's fuzzing coordinator races its own -fuzztime deadline
# and fails with "context deadline exceeded" and no input written
# (golang/go#75804, fixed in Go 1.27). Counts are sized to about 5-10 s
# each on 2 idle cores; a real finding still writes testdata/fuzz/... and
# fails the run.
FUZZSMOKE_FuzzRegistry   ?= 150000x
FUZZSMOKE_FuzzLockfree   ?= 300000x
FUZZSMOKE_FuzzConcurrent ?= 30000x
FUZZSMOKE_FuzzWGSL       ?= 200000x
# Go minimizes each new interesting input for up to 60s by default, with the
# exec count frozen meanwhile; FuzzRegistry's inputs are long enough that a
# single minimization ate most of a run.
FUZZMINIMIZE ?= 5s
# The fuzz targets of ./fuzz, run one after another (go test fuzzes one at a time).
FUZZTARGETS := FuzzRegistry FuzzLockfree FuzzConcurrent FuzzWGSL
BENCHTIME ?= 1s
# Flags of streamgate bench, e.g. make bench BENCHFLAGS='-run ^Mode/ -benchtime 1s'.
BENCHFLAGS ?=
DEMOFLAGS ?=
# Packages that must build without cgo (wgpu: with the same API, whose Open
# says it needs cgo).
PURE      := ./lockfree ./registry ./gpu ./client ./tune/... ./internal/... ./wgpu/... ./metrics ./streamgatetest

# Packages whose tests run under GOOS=js GOARCH=wasm in headless Chromium
# (make test-wasm), through the runner scripts/wasmexec; wgpu's and client's
# GPU tests (client.Example, capture and replay included) run on the page's
# navigator.gpu, and never skip (STREAMGATE_REQUIRE_ADAPTER=1).
# Not here: wgpu/internal/naga (naga through wazero, which the browser does
# not use: its own compiler takes the WGSL), cmd/streamgate (builds; its
# tests run the desktop CLI), internal/chromium and scripts/wasmexec (they
# drive the browser from the host, and are empty under js).
WASMPKGS := ./lockfree ./registry ./gpu ./metrics ./client ./streamgatetest \
	./tune ./tune/cachetest ./tune/webcache ./tune/sqlitecache ./tune/rediscache \
	./wgpu/wgsl ./wgpu/internal/lower ./fuzz ./bench \
	./internal/low/spin ./internal/low/leaktest ./internal/workload/decoder ./internal/oracle \
	./wgpu ./internal/workload/genrun ./cmd/streamgate-web/internal/page
# The wasm stage runs -short: the long stress variants run on the desktop,
# where they have threads to race; under js one thread runs them in turn.
WASMFLAGS ?= -short

# Every go test run of make test goes through scripts/testlog, which keeps
# its events in TESTLOGDIR/<stage>.json and prints what go test prints
# without -v; once every stage has run, testlog check fails on a test that
# skipped in all of them. $(call gotest,STAGE) is that go test -json.
TESTLOG    := $(TOOLS)/testlog
TESTLOGDIR := $(CURDIR)/out/testlog
gotest = $(TESTLOG) run $(TESTLOGDIR)/$(1).json -- $(GO) test -json

# Tests never skip for want of a GPU adapter here: lavapipe is installed.
export STREAMGATE_REQUIRE_ADAPTER ?= 1
# Nor for want of a redis-server (the Redis cache tests start their own).
export STREAMGATE_REQUIRE_REDIS ?= 1

.PHONY: all deps deps-gpu deps-lint deps-cross deps-redis deps-chromium test testlog testlog-reset lint unit cross test-wasm fuzz-smoke bench bench-go fuzz soak demo demo-web demo-web-screenshot clean

all: test

# scripts/install-deps.sh installs one step per argument, only what is missing.
deps: deps-gpu deps-lint deps-cross deps-redis deps-chromium
deps-gpu:
	@scripts/install-deps.sh lavapipe
deps-lint:
	@scripts/install-deps.sh staticcheck
deps-cross:
	@scripts/install-deps.sh mingw
deps-redis:
	@scripts/install-deps.sh redis
deps-chromium:
	@scripts/install-deps.sh chromium

test: deps testlog-reset lint unit cross test-wasm fuzz-smoke
	@echo "== every test ran in some stage"
	$(TESTLOG) check $(TESTLOGDIR)/*.json

testlog:
	@$(GO) build -o $(TESTLOG) ./scripts/testlog
testlog-reset: testlog
	@rm -rf $(TESTLOGDIR)

lint: testlog
	@echo "== gofmt"; out=$$(gofmt -l $$(git ls-files '*.go')); if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi
	@echo "== go mod tidy"; $(GO) mod tidy -diff
	@echo "== go vet"; $(GO) vet ./...
	@echo "== go vet (GOOS=js GOARCH=wasm)"; GOOS=js GOARCH=wasm $(GO) vet ./...
	@echo "== tune and metrics link neither SQLite nor Redis (their own packages do)"
	@out=$$($(GO) list -deps ./tune ./metrics | grep -E '^(modernc.org/sqlite|github.com/redis/go-redis/v9)$$' || true); \
		if [ -n "$$out" ]; then echo "linked: $$out"; exit 1; fi
	@echo "== staticcheck"; $(TOOLS)/staticcheck ./...
	@echo "== pure Go (CGO_ENABLED=0, and GOARCH=386 for 64-bit atomic alignment)"
	CGO_ENABLED=0 $(GO) build $(PURE)
	CGO_ENABLED=0 $(call gotest,nocgo) -count=1 ./wgpu
	@echo "== a program calling wgpu.Open, built with CGO_ENABLED=0, says it needs cgo"
	@out=$$(CGO_ENABLED=0 $(GO) run ./wgpu/testdata/nocgo 2>&1); echo "$$out"; \
		case "$$out" in *"NoCgo"*"CGO_ENABLED=1"*) ;; *) echo "want the NoCgo error naming CGO_ENABLED=1"; exit 1;; esac
	GO=$(GO) scripts/test-386.sh $(PURE)

unit: testlog
	@echo "== go test -race"
	$(call gotest,race) -race -count=1 ./...
	@echo "== cgo pointer checks (GOEXPERIMENT=cgocheck2) on the packages that cross into C"
	GOEXPERIMENT=cgocheck2 $(call gotest,cgocheck2) -count=1 ./wgpu ./client ./tune
	@echo "== without the race detector, the packages with tests that skip under it"
	$(call gotest,norace) -count=1 ./wgpu/internal/naga

# The tests of WASMPKGS built for GOOS=js GOARCH=wasm, each test binary run
# in headless Chromium by scripts/wasmexec (which kills a binary that does
# not exit, and fails without a WebGPU adapter or a Chromium here).
test-wasm: deps-chromium testlog
	@echo "== GOOS=js GOARCH=wasm go test in headless Chromium"
	$(GO) build -o $(TOOLS)/wasmexec ./scripts/wasmexec
	STREAMGATE_REQUIRE_ADAPTER=1 STREAMGATE_REQUIRE_CHROMIUM=1 GOOS=js GOARCH=wasm \
		$(call gotest,wasm) -count=1 $(WASMFLAGS) -exec $(TOOLS)/wasmexec $(WASMPKGS)

# windows/amd64 with cgo (mingw-w64), and darwin/amd64, darwin/arm64 and
# android/arm64 without cgo: see scripts/cross.sh.
cross: deps-cross
	@GO=$(GO) scripts/cross.sh

# Every benchmark in one process: a Markdown table and the Mode chart under
# out/bench (docs/bench-mode.* are its chart), and BENCHMARKS.md's generated
# section of every benchmark that ran in full refreshed (the date, the
# command, the machine, the table); the hand-written text around them stays.
# A part: make bench BENCHFLAGS='-run ^Mode/' refreshes Mode's section only.
BENCHDOC ?= BENCHMARKS.md
bench: deps-gpu
	$(GO) run ./cmd/streamgate bench -doc $(BENCHDOC) $(BENCHFLAGS)

# The same bodies through go test, for benchstat -col /impl.
bench-go: deps-gpu
	$(GO) test -run '^$$' -bench . -benchmem -benchtime $(BENCHTIME) ./...

# Plain go test (in unit) replays the committed corpora; these fuzz anew.
fuzz-smoke:
	@$(foreach t,$(FUZZTARGETS),echo "== fuzz $(t) for $(FUZZSMOKE_$(t))" && \
		$(GO) test ./fuzz -run '^$$' -fuzz '^$(t)$$' -fuzztime $(FUZZSMOKE_$(t)) -fuzzminimizetime $(FUZZMINIMIZE) && ) true

fuzz:
	@for t in $(FUZZTARGETS); do \
		echo "== fuzz $$t for $(FUZZTIME)"; \
		$(GO) test ./fuzz -run '^$$' -fuzz "^$$t\$$" -fuzztime $(FUZZTIME) -fuzzminimizetime $(FUZZMINIMIZE) || exit 1; \
	done

# The full soak of cancelled waits: 200,000 Syncs cancelled mid-wait; make
# test runs 20,000. The client lifecycle model: 1,000 rounds of calls racing
# Close; make test runs 25. The Redis cache's linearizability check: 40
# outages rather than 4, and the broken flusher's too.
soak: deps-gpu deps-redis
	STREAMGATE_SOAK=1 $(GO) test -count=1 -v -run 'Cancelled' ./wgpu
	STREAMGATE_SOAK=1 $(GO) test -count=1 -v -run '^TestLifecycleModel$$' ./client
	STREAMGATE_SOAK=1 $(GO) test -count=1 -v -timeout 30m -run 'TestLinearizableThroughOutages$$' ./tune/rediscache

# Generation with a KV cache: the warm-up (capture, compile, tune), the
# decode graph replayed per token, the CPU check, then the same generation
# cold in a child process; a second run finds the tune cache. Flags go in
# DEMOFLAGS, e.g. make demo DEMOFLAGS='-layers 2 -tokens 8'.
demo: deps-gpu
	$(GO) run ./cmd/streamgate generate $(DEMOFLAGS)

# The same demo in a browser: builds cmd/streamgate-web/app with GOOS=js
# GOARCH=wasm and serves it on WEBADDR (port 0: a free one), printing the
# URL to open and how to give the browser WebGPU. Needs Go only; the
# browser is yours. E.g. make demo-web WEBADDR=127.0.0.1:8080.
WEBADDR ?= 127.0.0.1:0
demo-web:
	$(GO) run ./cmd/streamgate-web -addr $(WEBADDR)

# docs/demo-web.png: the page after a run in headless Chromium with WebGPU
# (SwiftShader); needs Debian's chromium (or CHROMIUM=path).
demo-web-screenshot:
	$(GO) run ./cmd/streamgate-web -screenshot docs/demo-web.png

clean:
	rm -rf .tools streamgate out
