package naga

// Locks: pool.mu and resultCache.mu are leaves. Neither is held while the
// other is taken, nor while wasm runs or an instance is made.

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
)

// maxInstances bounds the instances a pool may ever be grown to (each
// costs its linear memory).
const maxInstances = 256

// pool hands instances of one sandbox to callers, one caller per instance.
// At most limit instances exist at a time; idle ones are kept for the
// next caller, made on demand. It is safe for concurrent use. The zero
// value is unusable; newPool makes one.
type pool struct {
	sb     *sandbox      // written once
	tokens chan struct{} // a token per instance that may still be made or handed out; cap maxInstances

	mu    sync.Mutex
	idle  []*instance // guarded by mu
	limit int         // guarded by mu: tokens put into the pool, in all

	made, dropped atomic.Int64 // instances made and closed, for tests
}

func newPool(sb *sandbox, size int) *pool {
	p := &pool{sb: sb, tokens: make(chan struct{}, maxInstances)}
	p.grow(max(size, 1))
	return p
}

// grow raises the pool's limit to n instances (at most maxInstances); it
// never lowers it.
func (p *pool) grow(n int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for ; p.limit < min(n, maxInstances); p.limit++ {
		p.tokens <- struct{}{}
	}
}

// get returns an instance for the caller's sole use, waiting while all
// instances are busy. A canceled ctx returns ctx.Err(). The caller must
// hand the instance back with put.
func (p *pool) get(ctx context.Context) (*instance, error) {
	select {
	case <-p.tokens:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	p.mu.Lock()
	var in *instance
	if n := len(p.idle); n > 0 {
		in = p.idle[n-1]
		p.idle[n-1] = nil
		p.idle = p.idle[:n-1]
	}
	p.mu.Unlock()
	if in != nil {
		return in, nil
	}
	in, err := newInstance(ctx, p.sb.rt, p.sb.cm)
	if err != nil {
		p.tokens <- struct{}{}
		return nil, err
	}
	p.made.Add(1)
	return in, nil
}

// put hands in back. If broken (its last call failed in the runtime), or
// if it grew too big, it is closed instead of kept.
func (p *pool) put(in *instance, broken bool) {
	if broken || !in.reusable() {
		in.close()
		p.dropped.Add(1)
	} else {
		p.mu.Lock()
		p.idle = append(p.idle, in)
		p.mu.Unlock()
	}
	p.tokens <- struct{}{}
}

// lower runs instance.lower on an instance of p, dropping the instance if
// the call fails in the runtime. wazero already turns a trap or a panic of
// a host function into an error; a panic of lower's own Go code is turned
// into one here too, so that the instance is dropped, not kept.
func (p *pool) lower(ctx context.Context, source string) (out string, nagaErr *Error, err error) {
	in, err := p.get(ctx)
	if err != nil {
		return "", nil, err
	}
	defer func() {
		if r := recover(); r != nil {
			out, nagaErr, err = "", nil, fmt.Errorf("naga: panic in the host: %v", r)
		}
		p.put(in, err != nil)
	}()
	return in.lower(ctx, source)
}

// closeIdle closes the idle instances. Busy ones close when put back.
func (p *pool) closeIdle() {
	p.mu.Lock()
	idle := p.idle
	p.idle = nil
	p.mu.Unlock()
	for _, in := range idle {
		in.close()
	}
}
