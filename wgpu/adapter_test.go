//go:build cgo

package wgpu_test

import (
	"errors"
	"strconv"
	"testing"

	"github.com/streamgate/streamgate/internal/gputest"
	"github.com/streamgate/streamgate/wgpu"
)

// TestOpenAdapter opens every adapter Adapters lists by its index, and by
// name where the name is unique: on lavapipe, the Vulkan adapter opens and
// the OpenGL one (which would abort the process) is refused.
func TestOpenAdapter(t *testing.T) {
	list, err := wgpu.Adapters()
	if err != nil {
		t.Fatalf("Adapters = %v", err)
	}
	if len(list) == 0 {
		if gputest.Required() {
			t.Fatal("Adapters lists none (STREAMGATE_REQUIRE_ADAPTER=1)")
		}
		t.Skip("no adapter")
	}
	primary := func(b wgpu.Backend) bool {
		return b == wgpu.BackendVulkan || b == wgpu.BackendMetal || b == wgpu.BackendD3D12
	}
	opened := 0
	for i, a := range list {
		t.Run(strconv.Itoa(i), func(t *testing.T) {
			d, err := wgpu.Open(wgpu.Options{Adapter: strconv.Itoa(i)})
			if !primary(a.Backend) {
				var e *wgpu.Error
				if !errors.As(err, &e) || e.Type != wgpu.ErrorTypeUnsupported {
					if err == nil {
						d.Close()
					}
					t.Fatalf("Open(Adapter: %d) of a %v adapter = %v, want an Unsupported error", i, a.Backend, err)
				}
				return
			}
			if err != nil {
				t.Fatalf("Open(Adapter: %d) = %v", i, err)
			}
			defer d.Close()
			opened++
			if got := d.Info(); got.Name != a.Name || got.Backend != a.Backend || got.Driver != a.Driver {
				t.Errorf("Open(Adapter: %d).Info() = %q %v %q, want %q %v %q", i, got.Name, got.Backend, got.Driver, a.Name, a.Backend, a.Driver)
			}
			// The device works: a buffer round-trips.
			b, err := d.NewBuffer(4, 0)
			if err != nil {
				t.Fatalf("NewBuffer = %v", err)
			}
			if err := b.WriteUint32([]uint32{42}); err != nil {
				t.Fatalf("WriteUint32 = %v", err)
			}
			if got, err := b.ReadUint32(t.Context()); err != nil || len(got) != 1 || got[0] != 42 {
				t.Fatalf("ReadUint32 = %v, %v, want [42]", got, err)
			}
		})
	}
	if opened == 0 {
		t.Fatalf("no adapter of %v opened by index", list)
	}
	t.Run("by name", func(t *testing.T) {
		var name string
		n := 0
		for _, a := range list {
			if primary(a.Backend) && (n == 0 || a.Name != name) {
				if n == 0 {
					name = a.Name
				}
				n++
			}
		}
		if n != 1 {
			t.Skipf("%d primary adapters; the name of the first may be ambiguous", n)
		}
		d, err := wgpu.Open(wgpu.Options{Adapter: name})
		if err != nil {
			t.Fatalf("Open(Adapter: %q) = %v", name, err)
		}
		defer d.Close()
		if got := d.Info().Name; got != name {
			t.Errorf("Open(Adapter: %q).Info().Name = %q", name, got)
		}
	})
	t.Run("no such name", func(t *testing.T) {
		_, err := wgpu.Open(wgpu.Options{Adapter: "no such adapter"})
		if !errors.Is(err, wgpu.ErrNoAdapter) {
			t.Fatalf("Open(Adapter: no such adapter) = %v, want ErrNoAdapter", err)
		}
	})
}
