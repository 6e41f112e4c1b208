//go:build cgo || (js && wasm)

package wgpu_test

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"

	"github.com/streamgate/streamgate/gpu"
	"github.com/streamgate/streamgate/wgpu"
)

func TestOpenInfo(t *testing.T) {
	d := openTestDevice(t)
	info := d.Info()
	if info.Name == "" || info.Backend == wgpu.BackendAny {
		t.Errorf("Info = %+v, want a name and a backend", info)
	}
	t.Logf("adapter: %+v", info)
	lim := d.Limits()
	if lim.MaxBufferSize == 0 || lim.MaxStorageBufferBindingSize == 0 || lim.MaxComputeWorkgroupsPerDimension == 0 {
		t.Errorf("Limits = %+v, want non-zero limits", lim)
	}
	if info.Timestamps != d.HasTimestamps() {
		t.Errorf("Info().Timestamps = %v, HasTimestamps() = %v", info.Timestamps, d.HasTimestamps())
	}
	adapters, err := wgpu.Adapters()
	if err != nil || len(adapters) == 0 {
		t.Errorf("Adapters = %v, %v; want at least one", adapters, err)
	}
}

func TestServiceIDsUnique(t *testing.T) {
	var mu sync.Mutex
	seen := map[gpu.ServiceID]bool{}
	var wg sync.WaitGroup
	for i := 0; i < 3; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			d := openTestDevice(t)
			mu.Lock()
			defer mu.Unlock()
			if d.ServiceID() == 0 || seen[d.ServiceID()] {
				t.Errorf("ServiceID = %d, zero or repeated", d.ServiceID())
			}
			seen[d.ServiceID()] = true
		}()
	}
	wg.Wait()
}

func TestNewBufferLimits(t *testing.T) {
	d := openTestDevice(t)
	lim := d.Limits()
	tests := []struct {
		name  string
		size  uint64
		usage wgpu.BufferUsage
		typ   wgpu.ErrorType
	}{
		{"zero", 0, 0, wgpu.ErrorTypeInvalidArgument},
		{"unaligned", 6, 0, wgpu.ErrorTypeInvalidArgument},
		{"over-max-buffer-size", (lim.MaxBufferSize/4 + 1) * 4, wgpu.BufferUsageCopyDst, wgpu.ErrorTypeLimit},
		{"over-storage-binding", (lim.MaxStorageBufferBindingSize/4 + 1) * 4, wgpu.BufferUsageStorage, wgpu.ErrorTypeLimit},
		{"over-uniform-binding", (lim.MaxUniformBufferBindingSize/4 + 1) * 4, wgpu.BufferUsageUniform, wgpu.ErrorTypeLimit},
		{"map-read-with-storage", 64, wgpu.BufferUsageMapRead | wgpu.BufferUsageStorage, wgpu.ErrorTypeValidation},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b, err := d.NewBuffer(tc.size, tc.usage)
			if b != nil {
				t.Errorf("NewBuffer(%d, %v) returned a buffer", tc.size, tc.usage)
			}
			e := asError(t, err)
			if e.Type != tc.typ || e.Op != "NewBuffer" {
				t.Errorf("NewBuffer(%d, %v) = %v, want Op NewBuffer, Type %v", tc.size, tc.usage, err, tc.typ)
			}
		})
	}
	b := mustBuffer(t, d, 16)
	if err := wgpu.Write(b, 0, make([]byte, 20)); err == nil {
		t.Errorf("Write(20 bytes into 16) = nil, want an error")
	}
	if b.Size() != 16 {
		t.Errorf("Size = %d, want 16", b.Size())
	}
}

func TestClosed(t *testing.T) {
	d := openTestDevice(t)
	ctx := context.Background()
	x := mustBuffer(t, d, 256)
	if err := d.Launch(1, incKernel, [3]uint32{1, 1, 1}, x); err != nil {
		t.Fatal(err)
	}
	if err := d.Close(); err != nil {
		t.Fatalf("Close = %v", err)
	}
	if err := d.Close(); err != nil {
		t.Fatalf("second Close = %v", err)
	}
	k := gpu.NewKernel("after", strings.Replace(incWGSL, "1u;", "5u;", 1), "main")
	tests := []struct {
		name string
		f    func() error
	}{
		{"Compile", func() error { return d.Compile(ctx, k) }},
		{"Compile-cached", func() error { return d.Compile(ctx, incKernel) }},
		{"Precompile", func() error { return d.Precompile(ctx, []*gpu.Kernel{k}) }},
		{"Launch", func() error { return d.Launch(1, incKernel, [3]uint32{1, 1, 1}, x) }},
		{"Flush", func() error { return d.Flush(1) }},
		{"Sync", func() error { return d.Sync(ctx, 1) }},
		{"NewBuffer", func() error { _, err := d.NewBuffer(16, 0); return err }},
		{"Write", func() error { return wgpu.Write(x, 0, make([]byte, 4)) }},
		{"Read", func() error { _, err := wgpu.Read[byte](ctx, x, 0, int(x.Size())); return err }},
		{"TimeStream", func() error { _, err := d.TimeStream(ctx, 1, func() error { return nil }); return err }},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.f()
			if !errors.Is(err, wgpu.ErrClosed) {
				t.Fatalf("%s after Close = %v, want ErrClosed", tc.name, err)
			}
			asError(t, err)
		})
	}
	if d.Compiled(incKernel) {
		t.Errorf("Compiled after Close = true")
	}
	x.Release() // harmless after Close
}

// TestCloseConcurrent closes a device while goroutines use it: every call
// either succeeds or returns ErrClosed.
func TestCloseConcurrent(t *testing.T) {
	d := openTestDevice(t)
	ctx := context.Background()
	var wg sync.WaitGroup
	for g := 0; g < 4; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			x, err := d.NewBuffer(256, 0)
			if err != nil {
				if !errors.Is(err, wgpu.ErrClosed) {
					t.Errorf("NewBuffer = %v", err)
				}
				return
			}
			for i := 0; i < 200; i++ {
				err := d.Launch(gpu.StreamID(g), incKernel, [3]uint32{1, 1, 1}, x)
				if err == nil && i%50 == 0 {
					_, err = wgpu.Read[byte](ctx, x, 0, int(x.Size()))
				}
				if err != nil {
					if !errors.Is(err, wgpu.ErrClosed) {
						t.Errorf("Launch/Read = %v, want nil or ErrClosed", err)
					}
					return
				}
			}
		}(g)
	}
	d.Close()
	wg.Wait()
}
