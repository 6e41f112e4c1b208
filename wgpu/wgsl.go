package wgpu

import (
	"fmt"
	"strings"
)

// BindingType is how a kernel declares a buffer binding.
type BindingType uint8

const (
	// BindingStorageRead: var<storage> or var<storage, read>.
	BindingStorageRead BindingType = iota + 1
	// BindingStorageReadWrite: var<storage, read_write>.
	BindingStorageReadWrite
	// BindingUniform: var<uniform>.
	BindingUniform
)

var bindingTypeNames = [...]string{"", "storage-read", "storage-read-write", "uniform"}

// String returns the type's name.
func (t BindingType) String() string {
	if int(t) < len(bindingTypeNames) && t != 0 {
		return bindingTypeNames[t]
	}
	return fmt.Sprintf("BindingType(%d)", uint8(t))
}

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
