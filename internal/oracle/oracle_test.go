package oracle_test

import (
	"testing"

	"github.com/streamgate/streamgate/internal/oracle"
	"github.com/streamgate/streamgate/registry"
)

func TestInsertCloneKey(t *testing.T) {
	a := registry.ServiceStream{Service: 1, Stream: 1}
	b := registry.ServiceStream{Service: 2, Stream: 1}
	var m oracle.Registry
	m.Insert(oracle.Override{ID: 7, Mode: registry.Execute, Stream: a})
	if id := m.Set(registry.Discard, b); id != 8 {
		t.Errorf("Set after Insert(ID 7) = %d, want 8", id)
	}
	c := m.Clone()
	c.Release(7)
	if got := m.Mode(a, registry.Discard); got != registry.Execute {
		t.Errorf("after releasing in a clone: Mode(%v, Discard) = %v, want Execute", a, got)
	}
	// The key ignores how streams interleave, not the order within one.
	var x, y oracle.Registry
	x.Insert(oracle.Override{ID: 1, Mode: registry.Execute, Stream: a})
	x.Insert(oracle.Override{ID: 2, Mode: registry.Execute, Stream: b})
	y.Insert(oracle.Override{ID: 2, Mode: registry.Execute, Stream: b})
	y.Insert(oracle.Override{ID: 1, Mode: registry.Execute, Stream: a})
	if x.Key() != y.Key() {
		t.Errorf("Key differs across stream interleavings: %q, %q", x.Key(), y.Key())
	}
	y.Insert(oracle.Override{ID: 3, Mode: registry.Discard, Stream: a})
	x.Insert(oracle.Override{ID: 3, Mode: registry.Discard, Stream: a})
	x.Release(1)
	x.Insert(oracle.Override{ID: 1, Mode: registry.Execute, Stream: a})
	if x.Key() == y.Key() {
		t.Errorf("Key ignores the order of one stream's overrides: %q", x.Key())
	}
}
