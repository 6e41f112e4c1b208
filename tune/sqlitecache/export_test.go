//go:build !js

package sqlitecache

// OpenRetries counts the steps of Open retried for a lock held by another
// connection, over the process's life.
func OpenRetries() int64 { return openRetries.Load() }
