package wgpu

import (
	"errors"
	"fmt"
	"strings"

	"github.com/streamgate/streamgate/wgpu/wgsl"
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

// Binding is one @group(0) @binding(Index) buffer declaration of a kernel.
type Binding struct {
	Index   uint32
	Name    string
	Type    BindingType
	WGSL    string // the binding's type as the front-end resolved it, e.g. "array<u32, 256>"
	MinSize uint64 // bytes the bound buffer needs at least
}

// ParseBindings reads the buffer bindings a WGSL module declares, sorted by
// index, with the default limits of package [wgsl] and no limit on their
// number. See [ParseKernel].
func ParseBindings(source string) ([]Binding, error) {
	return parseKernel(source, "", 0, 0)
}

// ParseKernel checks source with the WGSL front-end (package [wgsl]) as
// [Device.Compile] does before the shader compiler sees it, and returns the
// bindings of entry point entry: the buffers a [Device.Launch] binds, in
// order. The front-end refuses what the driver would crash on (an empty
// source, deep nesting, very long expressions; see [wgsl.DefaultLimits]),
// bindings outside @group(0) or not numbered 0..n-1, more bindings than
// maxBindings (0: no limit), and a missing compute entry point. MinSize is
// each binding's minimum buffer size by WGSL's memory layout rules: the
// whole type for a fixed-size one, the fixed part plus one element for a
// runtime-sized array. Errors are [*Error]s of type
// [ErrorTypeInvalidArgument], or [ErrorTypeLimit] for a limit, with the
// front-end's line and column.
func ParseKernel(source, entry string, maxBindings uint32) ([]Binding, error) {
	if entry == "" {
		return nil, newError("Compile", ErrorTypeInvalidArgument, "empty entry point")
	}
	return parseKernel(source, entry, maxBindings, 0)
}

// parseKernel is ParseKernel with the device's workgroup memory limit (0:
// the front-end's default).
func parseKernel(source, entry string, maxBindings, maxWorkgroupBytes uint32) ([]Binding, error) {
	const op = "Compile"
	lim := wgsl.DefaultLimits()
	lim.MaxBindings = int(min(maxBindings, 1<<20))
	lim.MaxWorkgroupBytes = int(min(maxWorkgroupBytes, 1<<30))
	m, err := wgsl.Parse(source, lim)
	if err != nil {
		typ := ErrorTypeInvalidArgument
		var we *wgsl.Error
		if errors.As(err, &we) && strings.Contains(we.Msg, "limit") {
			typ = ErrorTypeLimit
		}
		return nil, &Error{Op: op, Type: typ, Message: err.Error()}
	}
	if entry != "" {
		var computes []string
		found := false
		for _, ep := range m.EntryPoints {
			if ep.Stage == "compute" {
				computes = append(computes, ep.Name)
				found = found || ep.Name == entry
			}
		}
		if !found {
			return nil, newError(op, ErrorTypeInvalidArgument, "no @compute entry point %q (the module has %s)", entry, listOrNone(computes))
		}
	}
	out := make([]Binding, 0, len(m.Bindings))
	for i, b := range m.Bindings {
		if b.Group != 0 {
			return nil, newError(op, ErrorTypeInvalidArgument, "binding %q: @group(%d): only @group(0) is supported", b.Name, b.Group)
		}
		if b.Index != uint32(i) {
			return nil, newError(op, ErrorTypeInvalidArgument, "binding %q: @binding(%d): bindings must be numbered 0..%d without gaps (Launch binds buffers in order)", b.Name, b.Index, len(m.Bindings)-1)
		}
		var t BindingType
		switch b.Kind {
		case wgsl.StorageRead:
			t = BindingStorageRead
		case wgsl.StorageReadWrite:
			t = BindingStorageReadWrite
		case wgsl.Uniform:
			t = BindingUniform
		default:
			return nil, newError(op, ErrorTypeInvalidArgument, "binding %q: unsupported kind %v", b.Name, b.Kind)
		}
		out = append(out, Binding{Index: b.Index, Name: b.Name, Type: t, WGSL: b.Type, MinSize: b.MinSize})
	}
	return out, nil
}

func listOrNone(names []string) string {
	if len(names) == 0 {
		return "none"
	}
	return strings.Join(names, ", ")
}
