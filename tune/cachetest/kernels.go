package cachetest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"sync"
	"testing"
)

// kernelChecks are the checks of a KernelStore, in the order RunKernels
// runs them.
func kernelChecks() []check[KernelStore] {
	return []check[KernelStore]{
		{"LoadMiss", checkKernelMiss},
		{"RoundTrip", checkKernelRoundTrip},
		{"Replace", checkKernelReplace},
		{"KeysApart", checkKernelKeysApart},
		{"Copies", checkKernelCopies},
		{"EmptyEntry", checkKernelEmpty},
		{"LargeEntry", checkKernelLarge},
		{"DoneContext", checkKernelDoneContext},
		{"Concurrent", checkKernelConcurrent},
	}
}

// kkey is a key whose bytes all follow from n.
func kkey(n uint64) [32]byte {
	var k [32]byte
	r := rand.New(rand.NewPCG(n, 0x6b65726e656c))
	for i := range k {
		k[i] = byte(r.Uint32())
	}
	return k
}

// kentry is n bytes that follow from seed, every byte value among them.
func kentry(seed uint64, n int) []byte {
	b := make([]byte, n)
	r := rand.New(rand.NewPCG(seed, 0x656e747279))
	for i := range b {
		if i < 256 {
			b[i] = byte(i)
		} else {
			b[i] = byte(r.Uint32())
		}
	}
	return b
}

func fmtBytes(b []byte) string {
	if len(b) <= 16 {
		return fmt.Sprintf("%d bytes %x", len(b), b)
	}
	return fmt.Sprintf("%d bytes %x…", len(b), b[:16])
}

// wantKernel checks that s holds want under k.
func wantKernel(ctx context.Context, s KernelStore, k [32]byte, want []byte) error {
	got, ok := s.LoadKernel(ctx, k)
	if !ok {
		return fmt.Errorf("LoadKernel(%x…) missed, want %s", k[:4], fmtBytes(want))
	}
	if !bytes.Equal(got, want) {
		return fmt.Errorf("LoadKernel(%x…) = %s, want %s", k[:4], fmtBytes(got), fmtBytes(want))
	}
	return nil
}

func storeKernel(ctx context.Context, s KernelStore, k [32]byte, e []byte) error {
	if err := s.StoreKernel(ctx, k, e); err != nil {
		return fmt.Errorf("StoreKernel(%x…, %s) = %v", k[:4], fmtBytes(e), err)
	}
	return nil
}

func checkKernelMiss(s KernelStore) error {
	if got, ok := s.LoadKernel(context.Background(), kkey(0)); ok {
		return fmt.Errorf("LoadKernel of a key never stored = %s, want a miss", fmtBytes(got))
	}
	return nil
}

func checkKernelRoundTrip(s KernelStore) error {
	ctx := context.Background()
	for i, n := range []int{1, 100, 4096} {
		k, e := kkey(uint64(i+1)), kentry(uint64(i), n)
		if err := storeKernel(ctx, s, k, e); err != nil {
			return err
		}
		if err := wantKernel(ctx, s, k, e); err != nil {
			return err
		}
	}
	return nil
}

func checkKernelReplace(s KernelStore) error {
	ctx := context.Background()
	k, other := kkey(1), kkey(2)
	if err := storeKernel(ctx, s, k, kentry(1, 5000)); err != nil {
		return err
	}
	if err := storeKernel(ctx, s, other, kentry(2, 10)); err != nil {
		return err
	}
	for _, e := range [][]byte{kentry(3, 100), kentry(4, 9000), []byte("short")} {
		if err := storeKernel(ctx, s, k, e); err != nil {
			return err
		}
		if err := wantKernel(ctx, s, k, e); err != nil {
			return fmt.Errorf("after a store over an entry: %w", err)
		}
	}
	return wantKernel(ctx, s, other, kentry(2, 10))
}

// checkKernelKeysApart: keys that differ in one bit, at either end, and
// the all-zero and all-ones keys each keep their own entry.
func checkKernelKeysApart(s KernelStore) error {
	ctx := context.Background()
	var zero, ones [32]byte
	for i := range ones {
		ones[i] = 0xff
	}
	base := kkey(7)
	first, last := base, base
	first[0] ^= 1
	last[31] ^= 0x80
	keys := [][32]byte{zero, ones, base, first, last}
	for i, k := range keys {
		if err := storeKernel(ctx, s, k, kentry(uint64(i), 64+i)); err != nil {
			return err
		}
	}
	for i, k := range keys {
		if err := wantKernel(ctx, s, k, kentry(uint64(i), 64+i)); err != nil {
			return err
		}
	}
	return nil
}

// checkKernelCopies: the store keeps a copy of what it is given, and
// returns a copy: a caller that changes either slice afterwards changes
// nothing stored.
func checkKernelCopies(s KernelStore) error {
	ctx := context.Background()
	k := kkey(1)
	given := kentry(1, 1000)
	want := bytes.Clone(given)
	if err := storeKernel(ctx, s, k, given); err != nil {
		return err
	}
	for i := range given {
		given[i] ^= 0xff
	}
	if err := wantKernel(ctx, s, k, want); err != nil {
		return fmt.Errorf("after the caller changed the slice it stored: %w", err)
	}
	got, _ := s.LoadKernel(ctx, k)
	for i := range got {
		got[i] = 0
	}
	if err := wantKernel(ctx, s, k, want); err != nil {
		return fmt.Errorf("after the caller changed the slice it loaded: %w", err)
	}
	return nil
}

func checkKernelEmpty(s KernelStore) error {
	ctx := context.Background()
	for i, e := range [][]byte{{}, nil} {
		k := kkey(uint64(i + 1))
		if err := storeKernel(ctx, s, k, e); err != nil {
			return err
		}
		got, ok := s.LoadKernel(ctx, k)
		if !ok || len(got) != 0 {
			return fmt.Errorf("LoadKernel of an empty entry = %s, %v; want 0 bytes, true", fmtBytes(got), ok)
		}
	}
	return nil
}

// checkKernelLarge: 1 MiB comes back whole, and so does a store over it.
func checkKernelLarge(s KernelStore) error {
	ctx := context.Background()
	k := kkey(1)
	for i, n := range []int{1 << 20, 1<<20 + 1, 300 << 10} {
		e := kentry(uint64(i), n)
		if err := storeKernel(ctx, s, k, e); err != nil {
			return err
		}
		if err := wantKernel(ctx, s, k, e); err != nil {
			return err
		}
	}
	return nil
}

// checkKernelDoneContext: with a context that is done, LoadKernel and
// StoreKernel return promptly; a load misses or returns what was stored;
// a store fails with the context's error (the stored entry is then the
// earlier one or the new one) or stores.
func checkKernelDoneContext(s KernelStore) error {
	ctx, done := context.Background(), cancelled()
	k, fresh := kkey(1), kkey(2)
	old, newer := kentry(1, 300), kentry(2, 400)
	if err := storeKernel(ctx, s, k, old); err != nil {
		return err
	}
	var got []byte
	var ok bool
	if err := within(prompt, "LoadKernel with a done context", func() { got, ok = s.LoadKernel(done, k) }); err != nil {
		return err
	}
	if ok && !bytes.Equal(got, old) {
		return fmt.Errorf("LoadKernel(done) = %s, want a miss or %s", fmtBytes(got), fmtBytes(old))
	}
	if err := within(prompt, "LoadKernel with a done context", func() { got, ok = s.LoadKernel(done, fresh) }); err != nil {
		return err
	}
	if ok {
		return fmt.Errorf("LoadKernel(done) of a key never stored = %s, want a miss", fmtBytes(got))
	}
	var serr error
	if err := within(prompt, "StoreKernel with a done context", func() { serr = s.StoreKernel(done, k, newer) }); err != nil {
		return err
	}
	got, ok = s.LoadKernel(ctx, k)
	switch {
	case serr == nil && (!ok || !bytes.Equal(got, newer)):
		return fmt.Errorf("StoreKernel(done) = nil, then LoadKernel = %s, %v; want the entry stored", fmtBytes(got), ok)
	case serr != nil && !errors.Is(serr, context.Canceled):
		return fmt.Errorf("StoreKernel(done) = %v, want nil or an error wrapping context.Canceled", serr)
	case serr != nil && (!ok || !(bytes.Equal(got, old) || bytes.Equal(got, newer))):
		return fmt.Errorf("StoreKernel(done) = %v, then LoadKernel = %s, %v; want the earlier entry or the new one", serr, fmtBytes(got), ok)
	}
	return nil
}

// checkKernelConcurrent: goroutines store and load keys of their own and
// replace one they share, all at once. Each reads its own stores back;
// afterwards every key holds its entry, and the shared key one of the
// entries stored under it, whole.
func checkKernelConcurrent(s KernelStore) error {
	workers, perWorker := 8, 25
	if testing.Short() {
		workers, perWorker = 4, 10
	}
	ctx := context.Background()
	shared := kkey(1 << 40)
	sharedEntry := func(w, i int) []byte { return bytes.Repeat([]byte{byte(w), byte(i)}, 2000+w) }
	own := func(w, i int) ([32]byte, []byte) {
		n := uint64(w*1000 + i)
		return kkey(n), kentry(n, 100+i)
	}
	errs := make([]error, workers)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range perWorker {
				k, e := own(w, i)
				if err := storeKernel(ctx, s, k, e); err != nil {
					errs[w] = err
					return
				}
				if err := wantKernel(ctx, s, k, e); err != nil {
					errs[w] = fmt.Errorf("a goroutine's own store: %w", err)
					return
				}
				if err := storeKernel(ctx, s, shared, sharedEntry(w, i)); err != nil {
					errs[w] = err
					return
				}
			}
		}()
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return err
	}
	lost := 0
	var first error
	for w := range workers {
		for i := range perWorker {
			k, e := own(w, i)
			if err := wantKernel(ctx, s, k, e); err != nil {
				lost++
				first = cmpErr(first, err)
			}
		}
	}
	if lost > 0 {
		return fmt.Errorf("%d of %d stores made by %d goroutines at once lost, e.g. %w", lost, workers*perWorker, workers, first)
	}
	got, ok := s.LoadKernel(ctx, shared)
	if ok {
		for w := range workers {
			for i := range perWorker {
				if bytes.Equal(got, sharedEntry(w, i)) {
					return nil
				}
			}
		}
	}
	return fmt.Errorf("LoadKernel of the key every goroutine stored = %s, %v; want one of the entries stored, whole", fmtBytes(got), ok)
}
