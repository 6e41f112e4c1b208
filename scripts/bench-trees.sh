#!/usr/bin/env bash
# Compares two builds of streamgate's launch paths side by side: OLD and NEW
# are streamgate binaries (go build -o … ./cmd/streamgate in each tree);
# each round runs `bench -count 1` of the cases RUN with OLD, then with NEW
# (the order alternating by round), and the table gives each case's median
# ns/op over the rounds with its min–max, and NEW's median over OLD's; a
# second table does the same for each case's ratio to its baseline in the
# same run (the hand-written go-webgpu loop of a launch case), which the
# machine's drift between runs does not move.
# Usage: scripts/bench-trees.sh OLD NEW [ROUNDS] [RUN] [BENCHTIME]
set -euo pipefail
old=$1 new=$2 rounds=${3:-5}
run=${4:-'^(DiscardedLaunch|ExecutedLaunch|Replay)/'}
benchtime=${5:-200ms}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
for r in $(seq 1 "$rounds"); do
	order="old new"
	[ $((r % 2)) = 0 ] && order="new old"
	for which in $order; do
		bin=$old
		[ "$which" = new ] && bin=$new
		"$bin" bench -count 1 -benchtime "$benchtime" -run "$run" -out "$out/o" 2>/dev/null |
			awk -v w="$which" -F'|' '/^\| [A-Z][A-Za-z]+\// { gsub(/ /, "", $2); gsub(/ /, "", $3); gsub(/ /, "", $7); print w, $2, $3; if ($7 != "") print w, $2 "÷baseline", $7 }' >> "$out/all"
	done
done
awk -v rounds="$rounds" '
function med(a, n,   i, j, t) { for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t } return (n % 2) ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2 }
{ k = $2; w = $1; n[w, k]++; v[w, k, n[w, k]] = $3 + 0; if (!(k in seen)) { seen[k] = 1; keys[++nk] = k } }
END {
	printf "| case | old ns/op (min–max) | new ns/op (min–max) | new ÷ old |\n|---|---:|---:|---:|\n"
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
}' "$out/all"
