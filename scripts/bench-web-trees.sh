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
awk -v rounds="$rounds" '
function med(a, n,   i, j, t) { for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t } return (n % 2) ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2 }
{ k = $2; w = $1; n[w, k]++; v[w, k, n[w, k]] = $3 + 0; if (!(k in seen)) { seen[k] = 1; keys[++nk] = k } }
END {
	printf "| metric | old (min–max) | new (min–max) | new ÷ old |\n|---|---:|---:|---:|\n"
	for (i = 1; i <= nk; i++) {
		k = keys[i]
		for (w = 0; w < 2; w++) {
			s = w ? "new" : "old"; m = n[s, k]
			delete a; lo = 1e18; hi = 0
			for (j = 1; j <= m; j++) { a[j] = v[s, k, j]; if (a[j] < lo) lo = a[j]; if (a[j] > hi) hi = a[j] }
			md[s] = med(a, m); mn[s] = lo; mx[s] = hi
		}
		printf "| %s | %.3g (%.3g–%.3g) | %.3g (%.3g–%.3g) | %.3f |\n", k, md["old"], mn["old"], mx["old"], md["new"], mn["new"], mx["new"], md["new"] / md["old"]
	}
	printf "\n%d rounds, old and new alternating\n", rounds
}' "$out"
