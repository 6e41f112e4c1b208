#!/usr/bin/env bash
# Installs what streamgate's demo, tests and cross-builds need on a Debian
# machine, one step per argument (no argument: every step):
#   lavapipe     a Vulkan driver — Mesa's lavapipe, a real Vulkan device on
#                the CPU — when none is present (make demo, make bench, tests)
#   staticcheck  the pinned staticcheck under .tools/bin (make lint)
#   mingw        the mingw-w64 C compiler for windows/amd64 when
#                x86_64-w64-mingw32-gcc is missing (make cross)
#   redis        Debian's redis-server when none is on PATH or in /usr/bin:
#                the tests of tune/rediscache start their own (make test)
#   chromium     Debian's chromium (without recommends) when /usr/bin/chromium
#                is missing: the GOOS=js GOARCH=wasm tests run in it headless
#                (make test-wasm); CHROMIUM=path names another browser
# Safe to run again: each step does only what is missing.
# Usage: scripts/install-deps.sh [lavapipe|staticcheck|mingw|redis|chromium]...
set -euo pipefail
cd "$(dirname "$0")/.."

# apt_install [--no-install-recommends] PKG... installs Debian packages as
# root or through sudo, updating the package lists first when the install
# fails without it.
apt_install() {
	local sudo=""
	if [ "$(id -u)" != 0 ]; then
		command -v sudo >/dev/null || { echo "install-deps: need root or sudo to apt-get install $*" >&2; exit 1; }
		sudo=sudo
	fi
	export DEBIAN_FRONTEND=noninteractive
	$sudo apt-get install -y -q "$@" >/dev/null 2>&1 ||
		{ $sudo apt-get update -q >/dev/null && $sudo apt-get install -y -q "$@" >/dev/null; }
}

have_vulkan() {
	ldconfig -p 2>/dev/null | grep 'libvulkan\.so\.1' >/dev/null || return 1
	local d
	for d in /usr/share/vulkan/icd.d /etc/vulkan/icd.d /usr/local/share/vulkan/icd.d; do
		compgen -G "$d/*.json" >/dev/null && return 0
	done
	[ -n "${VK_DRIVER_FILES:-}${VK_ICD_FILENAMES:-}" ]
}

lavapipe() {
	have_vulkan && return
	echo "install-deps: no Vulkan driver found; installing Mesa's lavapipe (mesa-vulkan-drivers libvulkan1)"
	apt_install mesa-vulkan-drivers libvulkan1
	have_vulkan || { echo "install-deps: lavapipe installed but no Vulkan driver is visible" >&2; exit 1; }
}

STATICCHECK_VERSION=v0.8.2
staticcheck() {
	if ! [ -x .tools/bin/staticcheck ] || ! .tools/bin/staticcheck -version 2>/dev/null | grep -q "${STATICCHECK_VERSION#v}"; then
		echo "install-deps: installing staticcheck $STATICCHECK_VERSION into .tools/bin"
		GOBIN="$PWD/.tools/bin" GOFLAGS= go install "honnef.co/go/tools/cmd/staticcheck@$STATICCHECK_VERSION"
	fi
}

mingw() {
	command -v x86_64-w64-mingw32-gcc >/dev/null && return
	echo "install-deps: installing the mingw-w64 C compiler for windows/amd64 (gcc-mingw-w64-x86-64)"
	apt_install gcc-mingw-w64-x86-64
	command -v x86_64-w64-mingw32-gcc >/dev/null ||
		{ echo "install-deps: gcc-mingw-w64-x86-64 installed but x86_64-w64-mingw32-gcc is not on PATH" >&2; exit 1; }
}

have_redis() {
	command -v redis-server >/dev/null || [ -x /usr/bin/redis-server ]
}

redis() {
	have_redis && return
	echo "install-deps: installing Debian's redis-server for the Redis cache tests"
	apt_install redis-server
	have_redis || { echo "install-deps: redis-server installed but not on PATH or in /usr/bin" >&2; exit 1; }
	# The package starts a system server; the tests start their own on free
	# ports and need none.
	if command -v systemctl >/dev/null && systemctl is-active --quiet redis-server 2>/dev/null; then
		systemctl stop redis-server >/dev/null 2>&1 || true
	fi
}

have_chromium() {
	if [ -n "${CHROMIUM:-}" ]; then
		[ -x "$CHROMIUM" ]
	else
		[ -x /usr/bin/chromium ]
	fi
}

chromium() {
	have_chromium && return
	if [ -n "${CHROMIUM:-}" ]; then
		echo "install-deps: CHROMIUM=$CHROMIUM is not an executable file" >&2
		exit 1
	fi
	echo "install-deps: installing Debian's chromium (--no-install-recommends) for the js/wasm tests"
	apt_install --no-install-recommends chromium
	have_chromium || { echo "install-deps: chromium installed but /usr/bin/chromium is missing" >&2; exit 1; }
}

[ $# -gt 0 ] || set -- lavapipe staticcheck mingw redis chromium
for step in "$@"; do
	case $step in
	lavapipe | staticcheck | mingw | redis | chromium) "$step" ;;
	*) echo "install-deps: unknown step $step (want lavapipe, staticcheck, mingw, redis or chromium)" >&2; exit 2 ;;
	esac
done
