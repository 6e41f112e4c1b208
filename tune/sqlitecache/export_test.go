package tune

// OpenRetries counts the steps of OpenCache retried for a lock held by
// another connection, over the process's life.
func OpenRetries() int64 { return openRetries.Load() }
