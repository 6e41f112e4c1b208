//go:build linux && !android

// Package xdg makes XDG_RUNTIME_DIR usable before a Vulkan driver loads.
package xdg

import (
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"syscall"
)

// runtimeDirOnce runs PrepareRuntimeDir's work once per process.
var runtimeDirOnce sync.Once

// PrepareRuntimeDir makes sure, once per process and before wgpu-native
// loads a Vulkan driver, that XDG_RUNTIME_DIR names a directory: Mesa's
// drivers (lavapipe among them) print "XDG_RUNTIME_DIR is invalid or not
// set in the environment" on every instance otherwise. A value that is an
// absolute path to a directory is left alone; else the variable is set to a
// private directory (mode 0700, owned by this user) under os.TempDir:
// streamgate-xdg-<uid>, or a fresh one when that name is taken by something
// else.
func PrepareRuntimeDir() {
	runtimeDirOnce.Do(func() {
		if dir, ok := runtimeDir(os.Getenv("XDG_RUNTIME_DIR"), os.TempDir(), os.Getuid()); ok {
			os.Setenv("XDG_RUNTIME_DIR", dir)
		}
	})
}

// runtimeDir returns the directory XDG_RUNTIME_DIR should name when its
// value cur is unusable, and ok false when cur is fine or no private
// directory could be made under tmp for user uid.
func runtimeDir(cur, tmp string, uid int) (dir string, ok bool) {
	if filepath.IsAbs(cur) {
		if fi, err := os.Stat(cur); err == nil && fi.IsDir() {
			return "", false
		}
	}
	dir = filepath.Join(tmp, fmt.Sprintf("streamgate-xdg-%d", uid))
	if err := os.Mkdir(dir, 0o700); err == nil || os.IsExist(err) {
		// Use an existing one only when it is ours and a real directory
		// (not a link another user planted).
		if fi, err := os.Lstat(dir); err == nil && fi.IsDir() {
			if st, isUnix := fi.Sys().(*syscall.Stat_t); isUnix && int(st.Uid) == uid &&
				(fi.Mode().Perm() == 0o700 || os.Chmod(dir, 0o700) == nil) {
				return dir, true
			}
		}
	}
	dir, err := os.MkdirTemp(tmp, "streamgate-xdg-") // mode 0700
	return dir, err == nil
}
