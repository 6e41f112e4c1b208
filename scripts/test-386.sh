#!/usr/bin/env bash
# Tests the pure-Go packages for GOARCH=386 (64-bit atomic alignment) where
# this machine can execute 386 binaries; elsewhere it builds the test
# binaries and vets them for 386, and says so in one line.
# Usage: scripts/test-386.sh PKG...
set -euo pipefail
go=${GO:-go}
probe_dir=$(mktemp -d)
trap 'rm -rf "$probe_dir"' EXIT
cat >"$probe_dir/main.go" <<'GO'
package main

func main() {}
GO
if [ "${STREAMGATE_386:-}" != build ] && (cd "$probe_dir" && CGO_ENABLED=0 GOARCH=386 GOFLAGS=-mod=mod $go build -o probe main.go 2>/dev/null) &&
	"$probe_dir/probe" 2>/dev/null; then
	CGO_ENABLED=0 GOARCH=386 $go test -short -count=1 "$@"
else
	echo "test-386: this machine cannot execute 386 binaries; building and vetting the 386 tests instead of running them"
	CGO_ENABLED=0 GOARCH=386 $go vet "$@"
	CGO_ENABLED=0 GOARCH=386 $go test -count=1 -exec /bin/true "$@" >/dev/null
fi
