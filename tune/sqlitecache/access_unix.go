//go:build unix

package sqlitecache

import (
	"io/fs"

	"golang.org/x/sys/unix"
)

// mayWrite reports whether this process has write access to path.
func mayWrite(path string, _ fs.FileInfo) bool { return unix.Access(path, unix.W_OK) == nil }
