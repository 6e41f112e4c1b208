package naga

import (
	"crypto/sha256"
	"sync"
)

// Bounds of the result cache.
const (
	maxResults     = 4096     // entries
	maxResultBytes = 64 << 20 // bytes of output and messages, about
)

// result is what Lower returned for a source: its output or naga's
// deterministic rejection of it.
type result struct {
	out string
	err *Error // never modified; Load hands out copies
}

func (r result) size() int {
	n := len(r.out) + 64
	if r.err != nil {
		n += len(r.err.Msg) + len(r.err.Full)
	}
	return n
}

// resultCache maps the SHA-256 of a source to its result. It holds at most
// maxResults entries and about maxResultBytes, evicting the oldest first.
// It is safe for concurrent use; the zero value is unusable, use
// newResultCache.
type resultCache struct {
	mu    sync.Mutex
	m     map[[sha256.Size]byte]result // guarded by mu
	order [][sha256.Size]byte          // guarded by mu; ring of maxResults: m's keys from head, oldest first
	head  int                          // guarded by mu
	bytes int                          // guarded by mu; sum of size() over m
}

func newResultCache() *resultCache {
	return &resultCache{
		m:     make(map[[sha256.Size]byte]result),
		order: make([][sha256.Size]byte, maxResults),
	}
}

// Load returns the result stored for key.
func (c *resultCache) Load(key [sha256.Size]byte) (out string, err error, ok bool) {
	c.mu.Lock()
	r, ok := c.m[key]
	c.mu.Unlock()
	if !ok {
		return "", nil, false
	}
	if r.err != nil {
		e := *r.err
		return "", &e, true
	}
	return r.out, nil, true
}

// Store records r for key unless it is there already. A result bigger
// than a quarter of the byte bound is not kept.
func (c *resultCache) Store(key [sha256.Size]byte, r result) {
	size := r.size()
	if size > maxResultBytes/4 {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.m[key]; ok {
		return
	}
	for len(c.m) > 0 && (len(c.m) >= maxResults || c.bytes+size > maxResultBytes) {
		c.evictOldestLocked()
	}
	c.order[(c.head+len(c.m))%maxResults] = key
	c.m[key] = r
	c.bytes += size
}

// evictOldestLocked drops the oldest entry. c.mu must be held.
func (c *resultCache) evictOldestLocked() {
	key := c.order[c.head]
	c.bytes -= c.m[key].size()
	delete(c.m, key)
	c.head = (c.head + 1) % maxResults
}

// Len returns the number of entries.
func (c *resultCache) Len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.m)
}
