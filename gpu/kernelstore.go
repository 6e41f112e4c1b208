package gpu

import (
	"context"
	"sync"
)

// KernelStore keeps what a compile derives from a kernel's source alone,
// across processes: package wgpu's kernel cache reads and writes it, and
// the tune caches (tune/sqlitecache, tune/rediscache), a bundle
// (tune/bundle) and a directory (wgpu.KernelDir) implement it. It lives
// here, in the contract every package shares, so that those need not
// import wgpu (the module's cgo package).
//
// Keys and entries are opaque to a store: the key is a SHA-256 of
// everything that changes the result (the source, the override values,
// the limits, the version of the code that derives an entry, the
// compiler's version, the driver's dialect), and an entry is bytes its
// writer verifies when it reads them back (the key inside, a checksum over
// the whole). A store may lose, truncate, corrupt or mix up entries
// without harm to a reader that checks them.
//
// Implementations are safe for concurrent use by multiple goroutines and
// processes. LoadKernel returns by the time ctx ends (a miss); StoreKernel
// likewise, with ctx.Err() or the store's error. A store that cannot
// write (a read-only file or directory, a full disk, a server down) goes on
// serving what it has, and either returns an error from StoreKernel (a
// wgpu.KernelDir) or keeps the entry where it can (a read-only SQLite
// file, in the process's memory; Redis down, queued until it is back).
type KernelStore interface {
	// LoadKernel returns the entry stored under key.
	LoadKernel(ctx context.Context, key [32]byte) (entry []byte, ok bool)
	// StoreKernel saves entry under key, replacing any earlier entry.
	StoreKernel(ctx context.Context, key [32]byte, entry []byte) error
}

// NewMemoryKernelStore returns an empty [KernelStore] that lives as long as
// the process. Its loads return copies, and it keeps copies of what it is
// given.
func NewMemoryKernelStore() KernelStore { return &memoryKernels{m: map[[32]byte][]byte{}} }

// memoryKernels is a KernelStore in a map.
type memoryKernels struct {
	mu sync.Mutex          // guards m
	m  map[[32]byte][]byte // key → entry (a copy of what was stored)
}

func (s *memoryKernels) LoadKernel(ctx context.Context, key [32]byte) ([]byte, bool) {
	if ctx.Err() != nil {
		return nil, false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	e, ok := s.m[key]
	if !ok {
		return nil, false
	}
	return append([]byte(nil), e...), true
}

func (s *memoryKernels) StoreKernel(ctx context.Context, key [32]byte, entry []byte) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.m[key] = append([]byte(nil), entry...)
	return nil
}
