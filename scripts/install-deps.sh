#!/usr/bin/env bash
# Installs what streamgate's tests, benchmarks and demo need on a Debian
# machine: a Vulkan driver (Mesa's lavapipe, a real Vulkan device on the CPU)
# when none is present, and the pinned staticcheck under .tools/bin.
# Safe to run again: it does only what is missing.
set -euo pipefail
cd "$(dirname "$0")/.."

have_vulkan() {
	ldconfig -p 2>/dev/null | grep 'libvulkan\.so\.1' >/dev/null || return 1
	local d
	for d in /usr/share/vulkan/icd.d /etc/vulkan/icd.d /usr/local/share/vulkan/icd.d; do
		compgen -G "$d/*.json" >/dev/null && return 0
	done
	[ -n "${VK_DRIVER_FILES:-}${VK_ICD_FILENAMES:-}" ]
}

if ! have_vulkan; then
	echo "install-deps: no Vulkan driver found; installing Mesa's lavapipe (mesa-vulkan-drivers libvulkan1)"
	sudo=""
	if [ "$(id -u)" != 0 ]; then
		command -v sudo >/dev/null || { echo "install-deps: need root or sudo to apt-get install mesa-vulkan-drivers libvulkan1" >&2; exit 1; }
		sudo=sudo
	fi
	export DEBIAN_FRONTEND=noninteractive
	$sudo apt-get install -y -q mesa-vulkan-drivers libvulkan1 >/dev/null 2>&1 ||
		{ $sudo apt-get update -q >/dev/null && $sudo apt-get install -y -q mesa-vulkan-drivers libvulkan1 >/dev/null; }
	have_vulkan || { echo "install-deps: lavapipe installed but no Vulkan driver is visible" >&2; exit 1; }
fi

STATICCHECK_VERSION=v0.8.2
if ! [ -x .tools/bin/staticcheck ] || ! .tools/bin/staticcheck -version 2>/dev/null | grep -q "${STATICCHECK_VERSION#v}"; then
	echo "install-deps: installing staticcheck $STATICCHECK_VERSION into .tools/bin"
	GOBIN="$PWD/.tools/bin" GOFLAGS= go install "honnef.co/go/tools/cmd/staticcheck@$STATICCHECK_VERSION"
fi
