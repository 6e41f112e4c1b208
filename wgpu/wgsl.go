package wgpu

import (
	"fmt"
	"strings"

	"github.com/streamgate/streamgate/wgpu/wgsl"
)

// BindingType is how a kernel declares a buffer binding: the front-end's
// [wgsl.BindingKind] itself, so that a binding has one kind type from the
// WGSL to the launch.
type BindingType = wgsl.BindingKind

const (
	// BindingStorageRead: var<storage> or var<storage, read>.
	BindingStorageRead = wgsl.StorageRead
	// BindingStorageReadWrite: var<storage, read_write>.
	BindingStorageReadWrite = wgsl.StorageReadWrite
	// BindingUniform: var<uniform>.
	BindingUniform = wgsl.Uniform
)

// Binding is one buffer binding of a kernel's entry point:
// @group(Group) @binding(Index).
type Binding struct {
	Group   uint32
	Index   uint32
	Name    string
	Type    BindingType
	WGSL    string // the binding's type as the front-end resolved it, e.g. "array<u32, 256>"
	MinSize uint64 // bytes the bound buffer needs at least
}

// String names the binding as errors do: "binding out (@group(0) @binding(2))".
func (b Binding) String() string {
	return fmt.Sprintf("binding %s (@group(%d) @binding(%d))", b.Name, b.Group, b.Index)
}

// bindingList names bindings for an error: "a, b, out".
func bindingList(bs []Binding) string {
	if len(bs) == 0 {
		return "none"
	}
	names := make([]string, len(bs))
	for i, b := range bs {
		names[i] = b.Name
	}
	return strings.Join(names, ", ")
}
