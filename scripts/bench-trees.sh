#!/usr/bin/env bash
# Compares two builds of streamgate's launch paths side by side: OLD and NEW
# are streamgate binaries (go build -o … ./cmd/streamgate in each tree);
# each round runs `bench -count 1` of the cases RUN with OLD, then with NEW
# (the order alternating by round), and the table gives each case's median
# ns/op over the rounds with its min–max, and NEW's median over OLD's; a
# second table does the same for each case's ratio to its baseline in the
# same run (the hand-written go-webgpu loop of a launch case), which the
# machine's drift between runs does not move, and, when RUN has the Floor
# cases, to the C floor of the same kernels in the same run (÷floor).
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
			awk -v w="$which" -F'|' -f "$(dirname "$0")/floorratio.awk" >> "$out/all"
	done
done
awk -v rounds="$rounds" -v what="case (ns/op)" -f "$(dirname "$0")/oldnew.awk" "$out/all"
