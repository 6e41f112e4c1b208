//go:build !unix && !js

package sqlitecache

import "io/fs"

// mayWrite reports whether this process has write access to path: where
// there is no access(2), the permission bits (a read-only attribute) say.
func mayWrite(_ string, info fs.FileInfo) bool { return info.Mode().Perm()&0o200 != 0 }
