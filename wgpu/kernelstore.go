package wgpu

import (
	"context"
	"sync"
)

// KernelStore keeps what a compile derives from a kernel's source alone
// (the source lowered for the driver, its entry points' lowered names,
// bindings and layouts, the position map, or the verdict on a source the
// checks refuse), so that a process that starts again does not lower again.
//
// Keys and entries are opaque to a store: the key is a SHA-256 of
// everything that changes the result (the source, the override values,
// the limits, the compiler's and this module's versions, the driver's
// dialect), and an entry is bytes that this package writes and verifies
// when it reads them back (the key inside, a checksum over the whole). A
// store may lose, truncate, corrupt or mix up entries without harm: what
// fails the check is a miss, logged once, and is never compiled.
//
// Implementations are safe for concurrent use by multiple goroutines and
// processes. LoadKernel returns by the time ctx ends (a miss); StoreKernel
// likewise, with ctx.Err() or the store's error. A store that cannot
// write (a read-only file, a full disk, a server down) returns an error
// from StoreKernel and goes on serving what it has. Package
// tune/sqlitecache keeps kernels beside tune entries in its file and
// tune/rediscache shares them with a fleet; [OpenKernelDir] is the default,
// a directory of files.
type KernelStore interface {
	// LoadKernel returns the entry stored under key.
	LoadKernel(ctx context.Context, key [32]byte) (entry []byte, ok bool)
	// StoreKernel saves entry under key, replacing any earlier entry.
	StoreKernel(ctx context.Context, key [32]byte, entry []byte) error
}

// NewMemoryKernelStore returns an empty [KernelStore] that lives as long as
// the process.
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
