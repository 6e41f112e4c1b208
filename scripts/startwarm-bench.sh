#!/usr/bin/env bash
# startwarm-bench.sh OLD NEW [ROUNDS] [ARGS...]: a restart of `streamgate
# generate`, old and new binaries interleaved (the order alternating round
# by round), ROUNDS rounds (default 7), on the caches a user has after one
# run: each binary runs once first to fill caches of its own (a tune cache
# file, and the new binary's kernel cache directory, both in a temporary
# directory; Mesa's shader cache is the user's, warm for both), then every
# round runs each binary as a fresh process with
#   generate -cold=false -restart=false -tokens 2 -out "" -json ARGS
# (-restart=false only where the binary has it) and reads from its report:
# the time from its process start to its first token (STREAMGATE_PROCESS_T0,
# read by the binary, is set just before the exec), device open, the
# warm-up and its compile, the first token, and the lowering's sandbox
# starts. It prints each figure's median and min–max per binary and the
# medians' ratio new ÷ old, then the whole process's wall time likewise.
#
# An OLD binary must report process_ms_to_first_token and device_open_ms:
# main from before the kernel cache is built with
# scripts/startwarm/baseline-50ade9b.patch applied (git apply), which adds
# those two fields and nothing else.
set -euo pipefail
old=$1 new=$2 rounds=${3:-7}
shift $(( $# >= 3 ? 3 : $# ))
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

run() { # run BIN TAG CACHES: one fresh process on the caches named CACHES, its report appended to $dir/TAG
	local bin=$1 tag=$2 caches=$3 extra=()
	shift 3
	if "$bin" generate -h 2>&1 | grep -q -- '-restart'; then extra=(-restart=false); fi
	local t0 t1
	t0=$(date +%s%N)
	STREAMGATE_KERNEL_CACHE=$dir/$caches-kernels STREAMGATE_PROCESS_T0=$t0 \
		"$bin" generate -cold=false "${extra[@]}" -tokens 2 -out "" -json -cache "$dir/$caches.db" "$@" >"$dir/out.json"
	t1=$(date +%s%N)
	python3 - "$dir/out.json" "$(( (t1 - t0) / 1000 ))" >>"$dir/$tag" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
print(d.get("process_ms_to_first_token", 0), d.get("device_open_ms", 0), d["warmup_seconds"] * 1000,
      d["warmup_compile_ms"], d["ttft_ms_warm"], d.get("lowering_starts", -1), int(sys.argv[2]) / 1000)
PY
}

run "$old" warm-old old "$@" >/dev/null
run "$new" warm-new new "$@" >/dev/null
for r in $(seq "$rounds"); do
	if (( r % 2 )); then run "$old" old old "$@"; run "$new" new new "$@"; else run "$new" new new "$@"; run "$old" old old "$@"; fi
done
python3 - "$dir/old" "$dir/new" "$rounds" <<'PY'
import statistics, sys
names = ["process start to first token (ms)", "device open (ms)", "warm-up (ms)", "warm-up compile (ms)",
         "first token after the warm-up (ms)", "lowering sandbox starts", "whole process, wall (ms)"]
rows = [[list(map(float, l.split())) for l in open(p)] for p in sys.argv[1:3]]
print(f"{sys.argv[3]} rounds, interleaved; median (min–max)")
print(f"| figure | old | new | new ÷ old |\n|---|---:|---:|---:|")
for i, n in enumerate(names):
    o = [r[i] for r in rows[0]]; w = [r[i] for r in rows[1]]
    mo, mw = statistics.median(o), statistics.median(w)
    ratio = f"{mw / mo:.2f}" if mo > 0 else "—"
    print(f"| {n} | {mo:.1f} ({min(o):.1f}–{max(o):.1f}) | {mw:.1f} ({min(w):.1f}–{max(w):.1f}) | {ratio} |")
PY
