#!/usr/bin/env bash
# Compares two builds of the browser's launch paths side by side: OLD and
# NEW are wgpu test binaries for the page (GOOS=js GOARCH=wasm go test -c
# -o … ./wgpu in each tree), run by WASMEXEC (make test-wasm builds it into
# .tools/bin/wasmexec) in headless Chromium. Each round runs BenchmarkWeb
# once with OLD, then with NEW (the order alternating by round); the table
# gives the median over the rounds of each metric BenchmarkWeb reports
# (itself a median of its 31 interleaved rounds), with its min–max, and
# NEW's median over OLD's.
# Usage: scripts/bench-web-trees.sh WASMEXEC OLD NEW [ROUNDS]
set -euo pipefail
exec=$1 old=$2 new=$3 rounds=${4:-5}
out=$(mktemp)
trap 'rm -f "$out"' EXIT
for r in $(seq 1 "$rounds"); do
	order="old new"
	[ $((r % 2)) = 0 ] && order="new old"
	for which in $order; do
		bin=$old
		[ "$which" = new ] && bin=$new
		STREAMGATE_REQUIRE_ADAPTER=1 "$exec" "$bin" -test.run '^$' -test.bench BenchmarkWeb -test.benchtime 1x 2>/dev/null |
			awk -v w="$which" '/^BenchmarkWeb/ { for (i = 5; i < NF; i += 2) print w, $(i + 1), $i }' >> "$out"
	done
done
awk -v rounds="$rounds" -v what="metric" -f "$(dirname "$0")/oldnew.awk" "$out"
