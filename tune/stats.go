package tune

import (
	"fmt"
	"sync/atomic"
)

// Stats counts a tuner's decisions. A key decided from memory (the fast
// path of Pick and Run) counts nothing.
type Stats struct {
	CacheHits   uint64 // keys decided by an entry of the persistent cache
	CacheMisses uint64 // keys the cache had no usable entry for, so measured
	Tuned       uint64 // keys measured and decided (CacheMisses less TuneErrors, less those in progress)
	TuneErrors  uint64 // measurements that decided nothing (every candidate failed, or the context ended)
}

// String formats s on one line: "cache_hits=3 cache_misses=1 tuned=1 tune_errors=0".
func (s Stats) String() string {
	return fmt.Sprintf("cache_hits=%d cache_misses=%d tuned=%d tune_errors=%d", s.CacheHits, s.CacheMisses, s.Tuned, s.TuneErrors)
}

// tunerStats are a Tuner's counts; each add also goes to the process's.
type tunerStats struct {
	cacheHits, cacheMisses, tuned, tuneErrors atomic.Uint64
}

// total is the process's counts over every Tuner.
var total tunerStats

func (s *tunerStats) load() Stats {
	return Stats{
		CacheHits:   s.cacheHits.Load(),
		CacheMisses: s.cacheMisses.Load(),
		Tuned:       s.tuned.Load(),
		TuneErrors:  s.tuneErrors.Load(),
	}
}

// The count methods add 1 to a count of t and of the process.
func (t *Tuner) countHit()   { t.stats.cacheHits.Add(1); total.cacheHits.Add(1) }
func (t *Tuner) countMiss()  { t.stats.cacheMisses.Add(1); total.cacheMisses.Add(1) }
func (t *Tuner) countTuned() { t.stats.tuned.Add(1); total.tuned.Add(1) }
func (t *Tuner) countError() { t.stats.tuneErrors.Add(1); total.tuneErrors.Add(1) }

// Stats returns the tuner's counts. Each is exact; under concurrent tunes
// they need not be read at one instant.
func (t *Tuner) Stats() Stats { return t.stats.load() }

// TotalStats returns the counts of every Tuner of the process, those
// collected included: each only grows, so it suits a monitoring counter
// (package metrics publishes it).
func TotalStats() Stats { return total.load() }
