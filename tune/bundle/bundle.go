package bundle

import (
	"bytes"
	"context"
	"fmt"
	"slices"
	"sort"

	"github.com/streamgate/streamgate/tune"
)

// Bundle is a bundle read by [Load]: its tune entries and kernel entries,
// read-only. It is safe for concurrent use by multiple goroutines; the
// zero value holds nothing and is not useful. A Bundle may be copied.
type Bundle struct {
	h       header
	size    int
	tune    []tuneEntry   // in key order (tune.CompareKeys)
	kernels []kernelEntry // in key order
}

// tuneEntry is one tune entry of a bundle.
type tuneEntry struct {
	k tune.CacheKey
	e tune.Entry
}

// Load reads and checks a bundle that [Write] wrote. It keeps data (the
// kernel entries are slices of it): the caller must not change data
// afterwards; a go:embed variable, which nothing writes, suits. Load
// refuses a bundle that is empty or foreign ([ErrNotBundle]), of another
// version ([ErrVersion]), truncated, changed or malformed ([ErrDamaged]),
// with an error that says which; it never uses part of one.
func Load(data []byte) (*Bundle, error) {
	d, err := decode(data)
	if err != nil {
		return nil, err
	}
	b := &Bundle{h: d.h, size: len(data), kernels: d.kernels}
	// The tune section is tune.Export's lines: tune.Import checks each.
	mc := tune.NewMemoryCache()
	n, err := tune.Import(bytes.NewReader(d.tuneLines), mc)
	if err != nil {
		return nil, fmt.Errorf("%w: tune section: %v", ErrDamaged, err)
	}
	devices := map[string]int{}
	mc.Range(func(k tune.CacheKey, e tune.Entry) bool {
		b.tune = append(b.tune, tuneEntry{k, e})
		devices[k.Device]++
		return true
	})
	switch {
	case n != len(b.tune):
		return nil, fmt.Errorf("%w: tune section: %d lines for %d keys (a key twice)", ErrDamaged, n, len(b.tune))
	case len(b.tune) != d.h.TuneEntries:
		return nil, fmt.Errorf("%w: %d tune entries; the header says %d", ErrDamaged, len(b.tune), d.h.TuneEntries)
	case len(b.kernels) != d.h.Kernels:
		return nil, fmt.Errorf("%w: %d kernel entries; the header says %d", ErrDamaged, len(b.kernels), d.h.Kernels)
	case len(devices) != len(d.h.Devices) || !slices.IsSorted(d.h.Devices):
		return nil, fmt.Errorf("%w: the header's devices %q are not the tune entries' %d, sorted", ErrDamaged, d.h.Devices, len(devices))
	}
	for _, dev := range d.h.Devices {
		if devices[dev] == 0 {
			return nil, fmt.Errorf("%w: the header names device %q, which no tune entry is for", ErrDamaged, dev)
		}
	}
	return b, nil
}

// MadeBy returns what wrote the bundle ([WriteOptions.MadeBy]).
func (b *Bundle) MadeBy() string { return b.h.MadeBy }

// Devices returns the adapter identities of the bundle's tune entries,
// sorted.
func (b *Bundle) Devices() []string { return slices.Clone(b.h.Devices) }

// Size returns the bundle's size in bytes.
func (b *Bundle) Size() int { return b.size }

// TuneEntries returns the number of tune entries.
func (b *Bundle) TuneEntries() int { return len(b.tune) }

// Kernels returns the number of kernel entries.
func (b *Bundle) Kernels() int { return len(b.kernels) }

// KernelBytes returns the size of the kernel entries, in bytes.
func (b *Bundle) KernelBytes() int {
	n := 0
	for _, k := range b.kernels {
		n += len(k.entry)
	}
	return n
}

// LoadTune returns the bundle's tune entry of k.
func (b *Bundle) LoadTune(k tune.CacheKey) (tune.Entry, bool) {
	i, ok := sort.Find(len(b.tune), func(i int) int { return tune.CompareKeys(k, b.tune[i].k) })
	if !ok {
		return tune.Entry{}, false
	}
	return cloneEntry(b.tune[i].e), true
}

// RangeTune calls f with each tune entry, in key order ([tune.CompareKeys]),
// until f returns false.
func (b *Bundle) RangeTune(f func(k tune.CacheKey, e tune.Entry) bool) {
	for _, t := range b.tune {
		if !f(t.k, cloneEntry(t.e)) {
			return
		}
	}
}

// LoadKernel returns a copy of the bundle's kernel entry of key. ctx is
// for the method set of a kernel store: a bundle never waits.
func (b *Bundle) LoadKernel(ctx context.Context, key [32]byte) ([]byte, bool) {
	i, ok := sort.Find(len(b.kernels), func(i int) int { return bytes.Compare(key[:], b.kernels[i].key[:]) })
	if !ok || ctx.Err() != nil {
		return nil, false
	}
	return slices.Clone(b.kernels[i].entry), true
}

// RangeKernels calls f with each kernel entry, in key order, until f
// returns false; the entry is f's to keep. It returns nil: a Bundle is a
// [KernelRanger], so a bundle can be written again (merged, filtered).
func (b *Bundle) RangeKernels(f func(key [32]byte, entry []byte) bool) error {
	for _, k := range b.kernels {
		if !f(k.key, slices.Clone(k.entry)) {
			break
		}
	}
	return nil
}

// cloneEntry returns e with a ranking of its own.
func cloneEntry(e tune.Entry) tune.Entry {
	e.Ranking = slices.Clone(e.Ranking)
	return e
}
