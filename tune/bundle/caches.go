package bundle

import (
	"context"
	"errors"
	"fmt"

	"github.com/streamgate/streamgate/gpu"
	"github.com/streamgate/streamgate/tune"
)

// KernelStore is [gpu.KernelStore], the contract of wgpu's kernel cache,
// which a bundle serves without this package importing wgpu (which the
// browser's build and programs without cgo may not link).
type KernelStore = gpu.KernelStore

// KernelStore returns a kernel store that loads from next, then from the
// bundle, and stores to next; with next nil, to a store in memory. next
// goes first because it takes the stores: an entry of the bundle that
// wgpu refuses (another build's) is lowered again and stored there, and
// the next process finds the good one rather than the bundle's again.
// A program puts its bundle behind the process's kernel cache with
//
//	wgpu.SetKernelStore(b.KernelStore(wgpu.CurrentKernelStore()))
//
// It is safe for concurrent use as next is.
func (b *Bundle) KernelStore(next KernelStore) KernelStore {
	if next == nil {
		next = gpu.NewMemoryKernelStore()
	}
	return &kernelStore{b: b, next: next}
}

// kernelStore is a Bundle behind a KernelStore.
type kernelStore struct {
	b    *Bundle
	next KernelStore
}

func (s *kernelStore) LoadKernel(ctx context.Context, key [32]byte) ([]byte, bool) {
	if e, ok := s.next.LoadKernel(ctx, key); ok {
		return e, true
	}
	return s.b.LoadKernel(ctx, key)
}

func (s *kernelStore) StoreKernel(ctx context.Context, key [32]byte, entry []byte) error {
	return s.next.StoreKernel(ctx, key, entry)
}

// TuneCache returns a tune cache that loads from next, then from the
// bundle — what this machine measured wins over what the bundle carries
// — and stores to and deletes from next (with next nil, a memory
// cache). A bundle's entry stays visible after Delete of its key: the
// bundle is read-only. Range lists both, in key order, next's entry where
// both hold a key. Close closes next. It is a [tune.ContextCache], whose
// contexts reach next when next is one too; it is safe for concurrent
// use as next is.
func (b *Bundle) TuneCache(next tune.Cache) tune.Cache {
	if next == nil {
		next = tune.NewMemoryCache()
	}
	return &tuneCache{b: b, next: next}
}

// tuneCache is a Bundle behind a tune.Cache.
type tuneCache struct {
	b    *Bundle
	next tune.Cache
}

func (c *tuneCache) Load(k tune.CacheKey) (tune.Entry, bool) {
	return c.LoadContext(context.Background(), k)
}

func (c *tuneCache) LoadContext(ctx context.Context, k tune.CacheKey) (tune.Entry, bool) {
	var e tune.Entry
	var ok bool
	if cc, isCC := c.next.(tune.ContextCache); isCC {
		e, ok = cc.LoadContext(ctx, k)
	} else {
		e, ok = c.next.Load(k)
	}
	if ok {
		return e, true
	}
	return c.b.LoadTune(k)
}

func (c *tuneCache) Store(k tune.CacheKey, e tune.Entry) error { return c.next.Store(k, e) }

func (c *tuneCache) StoreContext(ctx context.Context, k tune.CacheKey, e tune.Entry) error {
	if cc, ok := c.next.(tune.ContextCache); ok {
		return cc.StoreContext(ctx, k, e)
	}
	return c.next.Store(k, e)
}

func (c *tuneCache) Delete(k tune.CacheKey) error { return c.next.Delete(k) }

// Range merges next's Range with the bundle's entries, both in key
// order.
func (c *tuneCache) Range(f func(tune.CacheKey, tune.Entry) bool) error {
	rest, stopped := c.b.tune, false
	err := c.next.Range(func(k tune.CacheKey, e tune.Entry) bool {
		for len(rest) > 0 && tune.CompareKeys(rest[0].k, k) <= 0 {
			t := rest[0]
			rest = rest[1:]
			if tune.CompareKeys(t.k, k) < 0 && !f(t.k, cloneEntry(t.e)) {
				stopped = true
				return false
			}
		}
		if !f(k, e) {
			stopped = true
			return false
		}
		return true
	})
	for _, t := range rest {
		if stopped || !f(t.k, cloneEntry(t.e)) {
			break
		}
	}
	return err
}

func (c *tuneCache) Close() error { return c.next.Close() }

// Install copies the bundle's entries that tc and ks lack into them (a
// nil tc or ks: none of that kind); an entry either already holds under
// a key stays (what this machine measured wins). It returns what it
// copied, and an error that counts the stores that failed of each kind
// and holds the first one's error (a read-only cache fails them all). A
// canceled ctx stops it with ctx.Err(), what was copied staying.
func (b *Bundle) Install(ctx context.Context, tc tune.Cache, ks KernelStore) (Stats, error) {
	var st Stats
	var tuneFailed, kernelsFailed failures
	if tc != nil {
		for _, t := range b.tune {
			if err := ctx.Err(); err != nil {
				return st, err
			}
			if _, ok := tc.Load(t.k); ok {
				continue
			}
			if err := tc.Store(t.k, cloneEntry(t.e)); err != nil {
				tuneFailed.add(err)
				continue
			}
			st.TuneEntries++
		}
	}
	if ks != nil {
		for _, k := range b.kernels {
			if err := ctx.Err(); err != nil {
				return st, err
			}
			if _, ok := ks.LoadKernel(ctx, k.key); ok {
				continue
			}
			if err := ks.StoreKernel(ctx, k.key, k.entry); err != nil {
				kernelsFailed.add(err)
				continue
			}
			st.Kernels++
		}
	}
	return st, errors.Join(tuneFailed.err("tune entries"), kernelsFailed.err("kernel entries"))
}

// failures counts failed stores and keeps the first one's error.
type failures struct {
	n     int
	first error
}

func (f *failures) add(err error) {
	if f.n++; f.first == nil {
		f.first = err
	}
}

// err says how many stores of what failed; nil for none.
func (f *failures) err(what string) error {
	if f.n == 0 {
		return nil
	}
	return fmt.Errorf("bundle: %d %s not installed: %w", f.n, what, f.first)
}
