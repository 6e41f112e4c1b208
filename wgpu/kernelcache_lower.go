//go:build !(js && wasm)

package wgpu

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/streamgate/streamgate/wgpu/internal/lower"
	"github.com/streamgate/streamgate/wgpu/internal/naga"
)

// The kernel cache: what checkModule derives from a source (the lowered
// source, the entry points and their bindings, the position map, or the
// verdict on a source it refuses) is kept in the process (the holder's
// memo) and in the process's KernelStore, under a key of everything that changes it.
// An entry read back from a store is verified whole before it is used.

// kernelFormat names the entry format; a change of format changes every
// key and the magic, so that old entries are misses.
const kernelFormat = "streamgate kernel cache 1"

// kernelMagic begins an entry.
var kernelMagic = []byte("SGKERNEL1\n")

// kernelDialect is the driver's compiler, whose dialect the lowering
// writes.
const kernelDialect = "wgpu-native 0.17 (naga 0.13)"

// kernelResult is one checkModule result: mi, or err (without its Op).
type kernelResult struct {
	mi  *ModuleInfo
	err *Error
}

// kernelKey returns the key of a lowering: everything that changes its
// result.
func kernelKey(source string, constants map[string]float64, lim Limits) [32]byte {
	h := sha256.New()
	var n [8]byte
	field := func(s string) {
		binary.LittleEndian.PutUint64(n[:], uint64(len(s)))
		h.Write(n[:])
		h.Write([]byte(s))
	}
	field(kernelFormat)
	field(buildIdentity())
	field(naga.Version())
	field(kernelDialect)
	field(fmt.Sprintf("%+v", lim))
	names := make([]string, 0, len(constants))
	for name := range constants {
		names = append(names, name)
	}
	slices.Sort(names)
	field(strconv.Itoa(len(names)))
	for _, name := range names {
		field(name)
		field(strconv.FormatUint(math.Float64bits(constants[name]), 16))
	}
	field(source)
	var key [32]byte
	h.Sum(key[:0])
	return key
}

// buildIdentity names the code that derives an entry: its version,
// kernelCodeVersion, which TestKernelCodeVersion holds to the code's
// content, so that entries are shared by every build of the same code (a
// bundle a CI made, a program rebuilt) and never by builds of other code.
var buildIdentity = func() string { return "code " + strconv.Itoa(kernelCodeVersion) }

// kernelRecord is an entry's payload.
type kernelRecord struct {
	Lowered     string           `json:"lowered,omitempty"`
	EntryPoints []EntryPointInfo `json:"entry_points,omitempty"`
	Anchors     []lower.Anchor   `json:"anchors,omitempty"`
	ErrType     ErrorType        `json:"err_type,omitempty"`
	ErrMessage  string           `json:"err_message,omitempty"`
}

// encodeKernel writes r's entry under key: the magic, the key, the JSON
// payload, and the SHA-256 of all three.
func encodeKernel(key [32]byte, r *kernelResult) ([]byte, error) {
	var rec kernelRecord
	if r.err != nil {
		rec.ErrType, rec.ErrMessage = r.err.Type, r.err.Message
	} else {
		rec.Lowered, rec.EntryPoints, rec.Anchors = r.mi.Lowered, r.mi.EntryPoints, r.mi.posMap.Anchors()
	}
	payload, err := json.Marshal(&rec)
	if err != nil {
		return nil, err
	}
	b := make([]byte, 0, len(kernelMagic)+32+len(payload)+32)
	b = append(b, kernelMagic...)
	b = append(b, key[:]...)
	b = append(b, payload...)
	sum := sha256.Sum256(b)
	return append(b, sum[:]...), nil
}

// decodeKernel reads and verifies the entry b of key for source: the
// magic, the key, the checksum, the payload, and that the payload fits
// the source and itself (each entry point's lowered name declared in the
// lowered source, the position map inside both sources).
func decodeKernel(key [32]byte, source string, b []byte) (*kernelResult, error) {
	head := len(kernelMagic) + 32
	switch {
	case len(b) < head+32:
		return nil, fmt.Errorf("%d bytes, shorter than any entry", len(b))
	case !bytes.Equal(b[:len(kernelMagic)], kernelMagic):
		return nil, errors.New("not a kernel cache entry of this format")
	case !bytes.Equal(b[len(kernelMagic):head], key[:]):
		return nil, errors.New("the entry of another key")
	}
	body, sum := b[:len(b)-32], b[len(b)-32:]
	if want := sha256.Sum256(body); !bytes.Equal(sum, want[:]) {
		return nil, errors.New("checksum mismatch (damaged or truncated)")
	}
	var rec kernelRecord
	dec := json.NewDecoder(bytes.NewReader(body[head:]))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&rec); err != nil {
		return nil, fmt.Errorf("payload: %v", err)
	}
	if rec.ErrType != 0 || rec.ErrMessage != "" {
		if !cacheableType(rec.ErrType) || rec.ErrMessage == "" || rec.Lowered != "" || len(rec.EntryPoints) > 0 {
			return nil, errors.New("payload: a malformed verdict")
		}
		return &kernelResult{err: &Error{Type: rec.ErrType, Message: rec.ErrMessage}}, nil
	}
	if rec.Lowered == "" {
		return nil, errors.New("payload: no lowered source")
	}
	for _, ep := range rec.EntryPoints {
		switch {
		case ep.Stage != "compute" && ep.Stage != "vertex" && ep.Stage != "fragment":
			return nil, fmt.Errorf("payload: entry point %q of stage %q", ep.Name, ep.Stage)
		case ep.Name == "" || ep.LoweredName == "" || !strings.Contains(rec.Lowered, "fn "+ep.LoweredName+"("):
			return nil, fmt.Errorf("payload: entry point %q not in the lowered source", ep.Name)
		}
		for i, bd := range ep.Bindings {
			if i > 0 && (bd.Group < ep.Bindings[i-1].Group || bd.Group == ep.Bindings[i-1].Group && bd.Index <= ep.Bindings[i-1].Index) {
				return nil, fmt.Errorf("payload: entry point %q: bindings out of order", ep.Name)
			}
			if strings.HasSuffix(bd.Type.String(), ")") {
				return nil, fmt.Errorf("payload: entry point %q: binding %s of no known type", ep.Name, bd.Name)
			}
		}
	}
	pm, err := lower.RestoreMap(source, rec.Lowered, rec.Anchors)
	if err != nil {
		return nil, fmt.Errorf("payload: position map: %v", err)
	}
	return &kernelResult{mi: &ModuleInfo{Lowered: rec.Lowered, EntryPoints: rec.EntryPoints, posMap: pm}}, nil
}

// cacheableType reports whether a refusal of type t is the source's (the
// same in every process, so kept): not a sandbox failure, a timeout or a
// cancellation.
func cacheableType(t ErrorType) bool {
	return t == ErrorTypeValidation || t == ErrorTypeLimit || t == ErrorTypeUnsupported
}

// result returns r as checkModule returns it for op: a copy of mi, whose
// slices the caller may keep and change, or err with op.
func (r *kernelResult) result(op string) (*ModuleInfo, error) {
	if r.err != nil {
		e := *r.err
		e.Op = op
		return nil, &e
	}
	mi := *r.mi
	mi.EntryPoints = slices.Clone(mi.EntryPoints)
	for i := range mi.EntryPoints {
		mi.EntryPoints[i].Bindings = slices.Clone(mi.EntryPoints[i].Bindings)
	}
	return &mi, nil
}

// lookupKernel returns the result kept under key for source: this
// process's, else the store's, verified. A store's entry that fails its
// check is a miss, and a warning once a process.
func lookupKernel(ctx context.Context, key [32]byte, source string) (*kernelResult, bool) {
	h := currentKernels()
	if r, ok := h.memo.Load(key); ok {
		kernelCounts.hits.Add(1)
		return r.(*kernelResult), true
	}
	s := h.s
	if s == nil {
		return nil, false
	}
	b, ok := loadFrom(ctx, s, key)
	if !ok {
		return nil, false
	}
	r, err := decodeKernel(key, source, b)
	if err != nil {
		kernelCounts.rejected.Add(1)
		kernelWarn("load", "an entry failed its check and is lowered again (a damaged, truncated or foreign entry)", "key", fmt.Sprintf("%x", key[:8]), "err", err)
		return nil, false
	}
	h.memo.Store(key, r)
	kernelCounts.hits.Add(1)
	kernelStoreHits.Add(1)
	return r, true
}

// keepKernel keeps r under key in the process and in its store. A store
// that fails is a warning once a process.
func keepKernel(ctx context.Context, key [32]byte, r *kernelResult) {
	h := currentKernels()
	h.memo.Store(key, r)
	s := h.s
	if s == nil {
		return
	}
	b, err := encodeKernel(key, r)
	if err == nil {
		err = storeTo(context.WithoutCancel(ctx), s, key, b)
	}
	if err != nil {
		kernelCounts.storeErrors.Add(1)
		kernelWarn("store", "an entry could not be stored; the next process lowers it again", "err", err)
		return
	}
	kernelCounts.stores.Add(1)
	if h.marked.CompareAndSwap(false, true) {
		markKernelsWarm(s)
	}
}

// loadFrom is s.LoadKernel, a panic in it a miss with a warning: a store
// is the program's code, and a compile must not die of it.
func loadFrom(ctx context.Context, s KernelStore, key [32]byte) (b []byte, ok bool) {
	defer func() {
		if p := recover(); p != nil {
			kernelWarn("load-panic", "the store's LoadKernel panicked; the source is lowered", "panic", fmt.Sprint(p))
			b, ok = nil, false
		}
	}()
	return s.LoadKernel(ctx, key)
}

// storeTo is s.StoreKernel, a panic in it an error.
func storeTo(ctx context.Context, s KernelStore, key [32]byte, b []byte) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("the store's StoreKernel panicked: %v", p)
		}
	}()
	return s.StoreKernel(ctx, key, b)
}

// kernelsWarmKey is the key of the mark this build leaves in a store once
// it has stored an entry there: a process that finds it expects its
// sources to hit and does not start the lowering's sandbox ahead of them.
func kernelsWarmKey() [32]byte {
	return sha256.Sum256([]byte(kernelFormat + "\x00warm\x00" + buildIdentity() + "\x00" + naga.Version()))
}

// markKernelsWarm leaves the warm mark in s.
func markKernelsWarm(s KernelStore) {
	key := kernelsWarmKey()
	if _, ok := loadFrom(context.Background(), s, key); !ok {
		storeTo(context.Background(), s, key, []byte(kernelFormat))
	}
}

// kernelsWarm reports whether the process's store holds the warm mark.
func kernelsWarm() bool {
	s := CurrentKernelStore()
	if s == nil {
		return false
	}
	b, ok := loadFrom(context.Background(), s, kernelsWarmKey())
	return ok && string(b) == kernelFormat
}
