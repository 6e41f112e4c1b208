package naga

import (
	"crypto/sha256"
	"strconv"
	"strings"
	"testing"
)

func TestResultCacheBounds(t *testing.T) {
	c := newResultCache()
	key := func(i int) [sha256.Size]byte { return sha256.Sum256([]byte(strconv.Itoa(i))) }
	for i := range 3 * maxResults {
		c.Store(key(i), result{out: strconv.Itoa(i)})
		if n := c.Len(); n > maxResults {
			t.Fatalf("Len() = %d after %d stores, want <= %d", n, i+1, maxResults)
		}
	}
	if _, _, ok := c.Load(key(0)); ok {
		t.Errorf("Load(oldest) found it, want it evicted")
	}
	if out, _, ok := c.Load(key(3*maxResults - 1)); !ok || out != strconv.Itoa(3*maxResults-1) {
		t.Errorf("Load(newest) = %q, %v, want it kept", out, ok)
	}
	// Big entries: the byte bound evicts before the entry bound.
	big := strings.Repeat("x", maxResultBytes/8)
	for i := range 20 {
		c.Store(key(-i-1), result{out: big})
	}
	if c.bytes > maxResultBytes {
		t.Errorf("bytes = %d, want <= %d", c.bytes, maxResultBytes)
	}
	sum := 0
	for _, r := range c.m {
		sum += r.size()
	}
	if sum != c.bytes {
		t.Errorf("bytes = %d, want the sum of sizes %d", c.bytes, sum)
	}
}

func TestResultCacheCopiesErrors(t *testing.T) {
	c := newResultCache()
	k := sha256.Sum256([]byte("x"))
	c.Store(k, result{err: &Error{Stage: StageParse, Msg: "m"}})
	_, err, _ := c.Load(k)
	err.(*Error).Msg = "changed"
	_, err, _ = c.Load(k)
	if got := err.(*Error).Msg; got != "m" {
		t.Errorf("Msg after a caller changed its copy = %q, want %q", got, "m")
	}
}
