package naga

import "testing"

// TestPoolGrowsToReserveNeverShrinks: a pool's limit grows to what Reserve
// asks for, up to maxInstances, and never shrinks.
func TestPoolGrowsToReserveNeverShrinks(t *testing.T) {
	p := newPool(nil, 2)
	if got := len(p.tokens); got != 2 {
		t.Fatalf("tokens of a pool of 2 = %d, want 2", got)
	}
	p.grow(5)
	p.grow(3)
	if got := len(p.tokens); got != 5 || p.limit != 5 {
		t.Errorf("after grow(5), grow(3): %d tokens, limit %d; want 5, 5", got, p.limit)
	}
	p.grow(maxInstances + 10)
	if p.limit != maxInstances {
		t.Errorf("limit after growing past maxInstances = %d, want %d", p.limit, maxInstances)
	}
}
