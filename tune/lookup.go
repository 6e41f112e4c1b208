package tune

// A key's decision: the ranking kept in memory, found there or in the
// cache (lookup), stored after a measurement (remember), or made up for a
// caller that does not wait (pendingDecision).

import (
	"context"
	"slices"
	"time"
)

// decision is a key's ranking, cached in memory. It is immutable.
type decision struct {
	names   []string  // the candidate names it was decided among, in the caller's order
	ranking []string  // best first
	result  *Result   // what Pick returns
	ran     []*Result // ran[i]: what Run returns when ranking[i] ran
}

// lookup returns op's decision from memory or the cache.
func (t *Tuner) lookup(ctx context.Context, op Op) (*decision, bool) {
	if d, ok := t.decided.Load(op.Key); ok && d.matches(op.Candidates) {
		return d, true
	}
	names := candidateNames(op.Candidates)
	e, ok := loadCache(ctx, t.cache, t.cacheKey(op.Key, op.Candidates))
	if !ok || !t.validRanking(op.Key, e.Ranking, names) {
		return nil, false
	}
	d := newDecision(names, e.Ranking, &Result{Key: op.Key, Timing: e.Timing, Cached: true, Winner: e.Ranking[0], ranking: e.Ranking})
	t.decided.Store(op.Key, d)
	t.countHit()
	return d, true
}

// validRanking reports whether a cached ranking names only known candidates
// and has at least one that has not failed here.
func (t *Tuner) validRanking(key string, ranking, names []string) bool {
	ok := false
	for _, r := range ranking {
		if !slices.Contains(names, r) {
			return false
		}
		if !t.hasFailed(key, r) {
			ok = true
		}
	}
	return ok
}

// remember stores the ranking of a measured op in the cache and returns
// its decision; a store that fails is a warning in res and on the logger,
// not an error.
func (t *Tuner) remember(ctx context.Context, op Op, res *Result) *decision {
	ranking := res.Ranking()
	if err := storeCache(ctx, t.cache, t.cacheKey(op.Key, op.Candidates), Entry{Ranking: ranking, Timing: res.Timing, Created: time.Now()}); err != nil {
		res.Warnings = append(res.Warnings, err.Error())
		t.log.Warn("tune: the result is not remembered", "key", op.Key, "err", err)
	}
	return newDecision(candidateNames(op.Candidates), ranking, res)
}

// pendingDecision is what a caller of op gets under WithNoStall while
// another chain tunes it: the default candidate first, then the others in
// the op's order. It is not stored.
func pendingDecision(op Op) *decision {
	names := candidateNames(op.Candidates)
	def := names[0]
	if op.Default != "" {
		def = op.Default
	}
	ranking := append([]string{def}, slices.DeleteFunc(slices.Clone(names), func(n string) bool { return n == def })...)
	return newDecision(names, ranking, &Result{Key: op.Key, Pending: true, Winner: def, ranking: ranking})
}

func newDecision(names, ranking []string, res *Result) *decision {
	d := &decision{names: names, ranking: ranking, result: res, ran: make([]*Result, len(ranking))}
	for i, name := range ranking {
		r := *res
		r.Ran = name
		d.ran[i] = &r
	}
	return d
}

func (d *decision) matches(cands []Candidate) bool {
	if len(d.names) != len(cands) {
		return false
	}
	for i, c := range cands {
		if d.names[i] != c.Name {
			return false
		}
	}
	return true
}
