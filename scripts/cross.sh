#!/usr/bin/env bash
# Cross-builds streamgate for the platforms it does not test on:
#   windows/amd64 with cgo: cmd/streamgate linked by mingw-w64 against the
#     static wgpu-native go-webgpu ships (out/cross/streamgate-windows-amd64.exe),
#     and go vet ./... for that target;
#   darwin/amd64, darwin/arm64, android/arm64 without cgo: go build ./... and
#     go vet ./... (their cgo builds need the macOS SDK or the Android NDK).
# It also checks that go-webgpu ships no static library for linux/arm64, as
# the README's platform table says; a new go-webgpu that ships one fails
# here until the table is updated.
# Usage: scripts/cross.sh   (GO and MINGW_CC override the tools)
set -euo pipefail
cd "$(dirname "$0")/.."
go=${GO:-go}
mingw_cc=${MINGW_CC:-x86_64-w64-mingw32-gcc}

libdir=$($go list -m -f '{{.Dir}}' github.com/rajveermalviya/go-webgpu/wgpu)/lib
shipped=$(cd "$libdir" && ls -d */*/libwgpu_native.a | sed 's|/libwgpu_native.a||' | sort | tr '\n' ' ')
echo "== go-webgpu ships static wgpu-native for: $shipped"
case " $shipped " in
*" linux/arm64 "*) echo "cross: go-webgpu now ships linux/arm64: update the README's platform table and this check" >&2; exit 1 ;;
esac

echo "== windows/amd64 with cgo (CC=$mingw_cc)"
command -v "$mingw_cc" >/dev/null || { echo "cross: no $mingw_cc (scripts/install-deps.sh mingw)" >&2; exit 1; }
mkdir -p out/cross
export CGO_ENABLED=1 GOOS=windows GOARCH=amd64 CC=$mingw_cc
$go vet ./...
$go build -o out/cross/streamgate-windows-amd64.exe ./cmd/streamgate
echo "out/cross/streamgate-windows-amd64.exe: $(($(wc -c <out/cross/streamgate-windows-amd64.exe) / 1000000)) MB"
unset CC

for p in darwin/amd64 darwin/arm64 android/arm64; do
	echo "== $p without cgo"
	export CGO_ENABLED=0 GOOS=${p%/*} GOARCH=${p#*/}
	$go build ./...
	$go vet ./...
done
