#!/usr/bin/env bash
# Fetches naga compiled to WebAssembly (the npm package naga-wasm) and puts
# its naga_bg.wasm, LICENSE-MIT and LICENSE-APACHE into wgpu/internal/naga/.
#
# The package version, the tarball's integrity (sha512, as the registry
# records it) and the SHA-256 of naga_bg.wasm are pinned in
# wgpu/internal/naga/version.go; this script reads them from there and
# stops if anything it fetched differs. To move to another version, change
# npmVersion, nagaVersion, tarballIntegrity and wasmSHA256 there (from
# `npm view naga-wasm@VERSION dist.integrity` and the new file), run this
# script, and run `go test ./wgpu/internal/naga/`.
#
# npm fetches from whatever registry it is configured with.
# Usage: scripts/fetch-naga-wasm.sh [--check]
#   --check  verify that the files in wgpu/internal/naga/ are the package's,
#            changing nothing.
# Needs npm and node (npm's runtime), tar.
set -euo pipefail
cd "$(dirname "$0")/.."
dest=wgpu/internal/naga
check=false
case "${1-}" in
"") ;;
--check) check=true ;;
*) echo "usage: $0 [--check]" >&2; exit 2 ;;
esac

pinned() { # pinned NAME: the value of the constant NAME in version.go
	local v
	v=$(sed -n "s/^[[:space:]]*$1[[:space:]]*=[[:space:]]*\"\(.*\)\"[[:space:]]*\$/\1/p" "$dest/version.go")
	if [ -z "$v" ]; then
		echo "fetch-naga-wasm: no constant $1 in $dest/version.go" >&2
		exit 1
	fi
	printf '%s' "$v"
}
package=$(pinned npmPackage)
version=$(pinned npmVersion)
naga_version=$(pinned nagaVersion)
license=$(pinned license)
integrity=$(pinned tarballIntegrity)
wasm_sha256=$(pinned wasmSHA256)

# digest ALGORITHM ENCODING FILE, by node, which npm needs anyway.
digest() {
	node -e 'const c=require("crypto"),fs=require("fs");
process.stdout.write(c.createHash(process.argv[1]).update(fs.readFileSync(process.argv[3])).digest(process.argv[2]))' "$@"
}

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

echo "== npm pack $package@$version"
(cd "$tmp" && npm pack --ignore-scripts --json "$package@$version" >pack.json)
tarball=$(node -e 'const p=require(process.argv[1]);process.stdout.write(p[0].filename)' "$tmp/pack.json")
reported=$(node -e 'const p=require(process.argv[1]);process.stdout.write(p[0].integrity)' "$tmp/pack.json")
computed="sha512-$(digest sha512 base64 "$tmp/$tarball")"
if [ "$reported" != "$integrity" ] || [ "$computed" != "$integrity" ]; then
	echo "fetch-naga-wasm: integrity of $tarball:" >&2
	echo "  pinned   $integrity" >&2
	echo "  npm      $reported" >&2
	echo "  computed $computed" >&2
	exit 1
fi
echo "   tarball integrity ok: $integrity"

mkdir "$tmp/x"
tar -xzf "$tmp/$tarball" -C "$tmp/x"
pkg=$tmp/x/package
meta=$(node -e 'const p=require(process.argv[1]);process.stdout.write([p.name,p.version,p.license].join("|"))' "$pkg/package.json")
if [ "$meta" != "$package|$version|$license" ]; then
	echo "fetch-naga-wasm: package.json says $meta, want $package|$version|$license" >&2
	exit 1
fi
wasm=$pkg/dist/wasm/naga_bg.wasm
got=$(digest sha256 hex "$wasm")
if [ "$got" != "$wasm_sha256" ]; then
	echo "fetch-naga-wasm: sha256(naga_bg.wasm) = $got, pinned $wasm_sha256" >&2
	exit 1
fi
echo "   naga_bg.wasm sha256 ok: $got"
# naga's crate version is in the panic locations of its sources.
if ! grep -q "naga-$naga_version/" "$wasm"; then
	echo "fetch-naga-wasm: naga_bg.wasm does not contain naga $naga_version" >&2
	exit 1
fi
echo "   contains naga $naga_version, license $license"

files=("$wasm" "$pkg/LICENSE-MIT" "$pkg/LICENSE-APACHE")
if $check; then
	status=0
	for f in "${files[@]}"; do
		if ! cmp -s "$f" "$dest/$(basename "$f")"; then
			echo "fetch-naga-wasm: $dest/$(basename "$f") differs from the package's" >&2
			status=1
		fi
	done
	[ $status = 0 ] && echo "== $dest holds $package $version"
	exit $status
fi
cp "${files[@]}" "$dest/"
echo "== copied naga_bg.wasm, LICENSE-MIT, LICENSE-APACHE into $dest"
