//go:build cgo

package wgpu_test

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
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
			if err := wgpu.Write(b, 0, []uint32{42}); err != nil {
				t.Fatalf("Write = %v", err)
			}
			if got, err := wgpu.Read[uint32](t.Context(), b, 0, int(b.Size()/4)); err != nil || len(got) != 1 || got[0] != 42 {
				t.Fatalf("Read = %v, %v, want [42]", got, err)
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

// TestOpenMakesXDGRuntimeDirUsable: with XDG_RUNTIME_DIR unset, or relative, a
// program's first Adapters call leaves lavapipe nothing to complain about.
// It runs in a child copy of the test binary, whose environment it controls.
func TestOpenMakesXDGRuntimeDirUsable(t *testing.T) {
	if os.Getenv("STREAMGATE_XDG_CHILD") == "1" {
		if _, err := wgpu.Adapters(); err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(os.Stdout, "XDG_RUNTIME_DIR=%s\n", os.Getenv("XDG_RUNTIME_DIR"))
		return
	}
	if runtime.GOOS != "linux" {
		t.Skip("XDG_RUNTIME_DIR matters on Linux only")
	}
	for _, value := range []string{"", "relative"} {
		t.Run("value="+value, func(t *testing.T) {
			cmd := exec.Command(os.Args[0], "-test.run=^TestOpenMakesXDGRuntimeDirUsable$", "-test.count=1")
			env := []string{"STREAMGATE_XDG_CHILD=1"}
			for _, kv := range os.Environ() {
				if !strings.HasPrefix(kv, "XDG_RUNTIME_DIR=") && !strings.HasPrefix(kv, "STREAMGATE_XDG_CHILD=") {
					env = append(env, kv)
				}
			}
			if value != "" {
				env = append(env, "XDG_RUNTIME_DIR="+value)
			}
			cmd.Env = env
			var stdout, stderr strings.Builder
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			if err := cmd.Run(); err != nil {
				t.Fatalf("child: %v\nstdout:\n%s\nstderr:\n%s", err, stdout.String(), stderr.String())
			}
			if strings.Contains(stderr.String(), "XDG_RUNTIME_DIR") {
				t.Errorf("the driver complained:\n%s", stderr.String())
			}
			if !strings.Contains(stdout.String(), "XDG_RUNTIME_DIR=/") {
				t.Errorf("XDG_RUNTIME_DIR not set to an absolute path; child stdout:\n%s", stdout.String())
			}
		})
	}
}
