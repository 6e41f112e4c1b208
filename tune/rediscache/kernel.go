package rediscache

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"sync"

	"github.com/redis/go-redis/v9"

	"github.com/streamgate/streamgate/tune"
)

// kernelStore has the method set of wgpu.KernelStore, which this package
// does not import (wgpu is the module's cgo package): a local cache that
// keeps kernels (tune/sqlitecache's) has it.
type kernelStore interface {
	LoadKernel(ctx context.Context, key [32]byte) ([]byte, bool)
	StoreKernel(ctx context.Context, key [32]byte, entry []byte) error
}

// localKernels is local's kernel store, or a memory one when local keeps
// no kernels.
func localKernels(local tune.Cache) kernelStore {
	if ks, ok := local.(kernelStore); ok {
		return ks
	}
	return &memoryKernels{m: map[[32]byte][]byte{}}
}

// memoryKernels keeps kernels for the process's life.
type memoryKernels struct {
	mu sync.Mutex          // guards m
	m  map[[32]byte][]byte // key → a copy of the entry stored
}

func (s *memoryKernels) LoadKernel(_ context.Context, key [32]byte) ([]byte, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	e, ok := s.m[key]
	if !ok {
		return nil, false
	}
	return append([]byte{}, e...), true
}

func (s *memoryKernels) StoreKernel(_ context.Context, key [32]byte, entry []byte) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.m[key] = append([]byte{}, entry...)
	return nil
}

// A kernel entry in Redis is sealed: kernelMagic, the key, a SHA-256 of
// the magic, the key and the entry, then the entry. A value that is not so
// sealed (truncated, poisoned, written under another key, or by another
// version) is a miss, never returned.
const (
	kernelMagic  = "SGk1"
	kernelHeader = len(kernelMagic) + 32 + sha256.Size
)

// sealKernel returns entry sealed for key.
func sealKernel(key [32]byte, entry []byte) []byte {
	v := make([]byte, kernelHeader, kernelHeader+len(entry))
	copy(v, kernelMagic)
	copy(v[len(kernelMagic):], key[:])
	v = append(v, entry...)
	sum := kernelSum(key, entry)
	copy(v[len(kernelMagic)+32:], sum[:])
	return v
}

func kernelSum(key [32]byte, entry []byte) [sha256.Size]byte {
	h := sha256.New()
	h.Write([]byte(kernelMagic))
	h.Write(key[:])
	h.Write(entry)
	return [sha256.Size]byte(h.Sum(nil))
}

// openKernel returns the entry that v seals for key.
func openKernel(key [32]byte, v []byte) ([]byte, error) {
	switch {
	case len(v) < kernelHeader:
		return nil, fmt.Errorf("%d bytes, shorter than a sealed entry's %d-byte header", len(v), kernelHeader)
	case string(v[:len(kernelMagic)]) != kernelMagic:
		return nil, fmt.Errorf("not a sealed kernel entry (starts %q)", v[:len(kernelMagic)])
	case !bytes.Equal(v[len(kernelMagic):len(kernelMagic)+32], key[:]):
		return nil, errors.New("sealed for another key")
	}
	entry := v[kernelHeader:]
	if sum := kernelSum(key, entry); !bytes.Equal(v[len(kernelMagic)+32:kernelHeader], sum[:]) {
		return nil, fmt.Errorf("its checksum does not match its %d bytes (truncated or changed)", len(entry))
	}
	return entry, nil
}

// kernelRedisKey is key's Redis key: kind "k" under the prefix, the key in
// hex.
func (c *Cache) kernelRedisKey(key [32]byte) string {
	return kindPrefix(c.prefix, "k") + hex.EncodeToString(key[:])
}

// pendingKernel is a kernel store that waits for Redis.
type pendingKernel struct {
	value []byte // the entry, sealed
	seq   uint64 // the store's number (Cache.seq)
}

// LoadKernel returns the kernel entry stored under key (see
// wgpu.KernelStore) from the local cache, else from Redis, keeping it
// locally. A value in Redis that is not a sealed entry of key is logged,
// once per key, and is a miss; so is a Redis fault (logged as a tune
// entry's is). A context that is done is a miss. It returns by the time
// ctx ends. There is no claim on a kernel: processes that miss one at
// once each compile it.
func (c *Cache) LoadKernel(ctx context.Context, key [32]byte) ([]byte, bool) {
	if ctx.Err() != nil {
		return nil, false
	}
	if e, ok := c.kernels.LoadKernel(ctx, key); ok {
		return e, true
	}
	if c.Down() {
		return nil, false
	}
	cctx, cancel := c.call(ctx)
	defer cancel()
	rkey := c.kernelRedisKey(key)
	v, err := c.rdb.Get(cctx, rkey).Bytes()
	switch {
	case errors.Is(err, redis.Nil):
		return nil, false
	case err != nil:
		if ctx.Err() == nil {
			c.failedAt("kernel load", rkey, hex.EncodeToString(key[:]), err)
		}
		return nil, false
	}
	e, err := openKernel(key, v)
	if err != nil {
		c.mu.Lock()
		logged := c.kignored[key]
		c.kignored[key] = true
		c.mu.Unlock()
		if !logged {
			c.log.Warn("tune: Redis kernel entry ignored", "key", hex.EncodeToString(key[:]), "err", err)
		}
		return nil, false
	}
	c.keepKernel(ctx, key, e)
	return e, true
}

// keepKernel stores e, key's entry in Redis, in the local store, unless
// it has key by now (a store made since the load missed it is as new or
// newer).
func (c *Cache) keepKernel(ctx context.Context, key [32]byte, e []byte) {
	unlock := lockIn(c, c.klocks, key)
	defer unlock()
	if _, ok := c.kernels.LoadKernel(ctx, key); ok {
		return
	}
	if err := c.kernels.StoreKernel(ctx, key, e); err != nil && ctx.Err() == nil {
		c.log.Warn("tune: a kernel entry from Redis is not kept locally", "key", hex.EncodeToString(key[:]), "err", err)
	}
}

// StoreKernel saves entry under key in the local store and in Redis (see
// wgpu.KernelStore), under the rules of [Cache.StoreContext]: a Redis
// fault is logged, never returned, and the entry is sent once Redis is
// back unless a newer store of key by this cache replaces it first; this
// cache's stores of key reach Redis in the order they were made. The error
// is the local store's, or ctx.Err() for a context that is done (nothing
// is stored then).
func (c *Cache) StoreKernel(ctx context.Context, key [32]byte, entry []byte) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	value := sealKernel(key, entry)
	unlock := lockIn(c, c.klocks, key)
	defer unlock()
	lerr := c.kernels.StoreKernel(ctx, key, entry)
	c.mu.Lock()
	c.seq++
	p := pendingKernel{value: value, seq: c.seq}
	delete(c.kpending, key) // older: this store replaces it, sent now or queued
	down := c.down
	c.mu.Unlock()
	if !down {
		err := c.sendKernel(ctx, key, value)
		if err == nil || refused(err) {
			return lerr // sent; or refused (logged), and it would be again
		}
	}
	c.mu.Lock()
	c.kpending[key] = p
	c.mu.Unlock()
	c.poke()
	return lerr
}

// sendKernel writes a sealed kernel entry to Redis; the caller holds its
// key's lock.
func (c *Cache) sendKernel(ctx context.Context, key [32]byte, value []byte) error {
	cctx, cancel := c.call(ctx)
	defer cancel()
	rkey := c.kernelRedisKey(key)
	err := c.rdb.Set(cctx, rkey, value, 0).Err()
	if err != nil && ctx.Err() == nil {
		c.failedAt("kernel store", rkey, hex.EncodeToString(key[:]), err)
	}
	return err
}

// flushKernels sends the pending kernel stores, each unless a newer store
// of its key replaced it meanwhile; false: Redis is down again.
func (c *Cache) flushKernels() bool {
	for {
		c.mu.Lock()
		var key [32]byte
		var p pendingKernel
		found := false
		for key, p = range c.kpending {
			found = true
			break
		}
		c.mu.Unlock()
		if !found {
			return true
		}
		if !c.flushKernel(key, p) {
			return false
		}
	}
}

func (c *Cache) flushKernel(key [32]byte, p pendingKernel) bool {
	unlock := lockIn(c, c.klocks, key)
	defer unlock()
	c.mu.Lock()
	cur, ok := c.kpending[key]
	c.mu.Unlock()
	if !ok || cur.seq != p.seq {
		return true // replaced: the newer store is sent, or pending
	}
	if err := c.sendKernel(context.Background(), key, p.value); err != nil && !refused(err) {
		return false
	}
	c.mu.Lock()
	if cur, ok := c.kpending[key]; ok && cur.seq == p.seq {
		delete(c.kpending, key) // sent, or refused (logged)
	}
	c.mu.Unlock()
	return true
}
