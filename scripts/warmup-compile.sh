#!/usr/bin/env bash
# Compares the warm-up of two streamgate binaries side by side:
# OLD (built before parallel compiles) and NEW (this tree's, built into
# out/warmup-compile/streamgate unless NEW names one), CMD=warmup or
# CMD=generate, ROUNDS interleaved rounds (old, new, old, new, ...), each
# with the driver's shader cache off and the same tune cache, warmed by one
# untimed run of each binary first (so nothing is measured: the warm-up is
# the compiles). It prints, per binary, the median and min–max of the
# warm-up's wall time (warmup_seconds of -json, which both print) and, for
# binaries that print it, of the warm-up's compile time (warmup_compile_ms,
# with compile_workers).
# Usage: OLD=/tmp/sg-old/streamgate CMD=warmup ROUNDS=7 scripts/warmup-compile.sh [flags of CMD...]
set -euo pipefail
cd "$(dirname "$0")/.."
go=${GO:-go}
cmd=${CMD:-warmup}
rounds=${ROUNDS:-5}
old=${OLD:?OLD=path of the binary to compare with}
dir=out/warmup-compile
mkdir -p "$dir"
new=${NEW:-}
if [ -z "$new" ]; then
	new=$dir/streamgate
	$go build -o "$new" ./cmd/streamgate
fi
case "$cmd" in
warmup) flags=(-steps 1 -out "") ;;
generate) flags=(-cold=false -tokens 2 -out "") ;;
*) echo "warmup-compile: CMD must be warmup or generate, got $cmd" >&2; exit 2 ;;
esac
cache=$dir/tune-$cmd.db
export MESA_SHADER_CACHE_DISABLE=true
run() { # binary, output file
	"$1" "$cmd" -cache "$cache" -json "${flags[@]}" "${@:3}" >"$2" 2>/dev/null
}
run "$old" "$dir/warm-old.json" "$@"
run "$new" "$dir/warm-new.json" "$@"
: >"$dir/rounds.jsonl"
for i in $(seq "$rounds"); do
	for which in old new; do
		bin=$old
		[ "$which" = new ] && bin=$new
		run "$bin" "$dir/round.json" "$@"
		python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); d["which"]=sys.argv[2]; print(json.dumps(d))' "$dir/round.json" "$which" >>"$dir/rounds.jsonl"
	done
done
python3 - "$dir/rounds.jsonl" "$cmd" "$rounds" <<'PY'
import json, statistics, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
cmd, rounds = sys.argv[2], sys.argv[3]
def fig(vals):
    return "%.1f ms (%.1f–%.1f)" % (statistics.median(vals), min(vals), max(vals))
def ws(r):  # warmup_seconds: top level for the model and generate, under "warmup" for -workload ops
    return r["warmup_seconds"] if "warmup_seconds" in r else r["warmup"]["seconds"]
print("streamgate %s, %s interleaved rounds, MESA_SHADER_CACHE_DISABLE=true, warm tune cache" % (cmd, rounds))
med = {}
for which in ("old", "new"):
    rs = [r for r in rows if r["which"] == which]
    wall = [1e3 * ws(r) for r in rs]
    med[which] = statistics.median(wall)
    line = "  %s: warm-up %s, %d pipelines" % (which, fig(wall), rs[0].get("warmup_compiles", rs[0].get("warmup", {}).get("pipelines_compiled", 0)))
    if "warmup_compile_ms" in rs[0]:
        line += "; compile %s on %d workers" % (fig([r["warmup_compile_ms"] for r in rs]), rs[0]["compile_workers"])
    print(line)
print("  new ÷ old (medians of the warm-up): %.2fx" % (med["new"] / med["old"]))
PY
