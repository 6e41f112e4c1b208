package wgpu

import (
	"fmt"
	"regexp"
	"strconv"
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

// Binding is one @group(0) @binding(Index) buffer declaration of a kernel.
type Binding struct {
	Index   uint32
	Name    string
	Type    BindingType
	MinSize uint64 // bytes the bound buffer needs at least; 0 when not derived
}

// maxBindings bounds the bindings of one kernel (and the bind group cache
// key).
const maxBindings = 16

var (
	wgslLineComment  = regexp.MustCompile(`//[^\n]*`)
	wgslBlockComment = regexp.MustCompile(`(?s)/\*.*?\*/`)
	// attributes followed by "var", then the optional address space, name
	// and type.
	wgslVar  = regexp.MustCompile(`((?:@\s*[A-Za-z_]\w*\s*(?:\([^)]*\))?\s*)+)var\s*(<[^>]*>)?\s*([A-Za-z_]\w*)\s*:\s*([^;=]+)`)
	wgslAttr = regexp.MustCompile(`@\s*(group|binding)\s*\(\s*([0-9]+)[iu]?\s*\)`)
)

// ParseBindings reads the buffer bindings a WGSL module declares, sorted by
// index. It understands @group(0) @binding(N) declarations of var<storage>,
// var<storage, read>, var<storage, read_write> and var<uniform>; any other
// resource, another group, or indices that are not exactly 0..n-1 is an
// [*Error] of type [ErrorTypeInvalidArgument]. This is a declaration scanner,
// not a WGSL parser: naga validates the source when the kernel compiles.
//
// MinSize is derived for scalar, vector, atomic and array types (one element
// of a runtime-sized array); for structs and matrices it is 0 and the driver
// checks sizes when the pass ends.
func ParseBindings(source string) ([]Binding, error) {
	src := wgslBlockComment.ReplaceAllString(source, " ")
	src = wgslLineComment.ReplaceAllString(src, " ")
	var out []Binding
	seen := map[uint32]bool{}
	for _, m := range wgslVar.FindAllStringSubmatch(src, -1) {
		attrs, space, name, typ := m[1], m[2], m[3], strings.TrimSpace(m[4])
		group, binding := -1, -1
		for _, a := range wgslAttr.FindAllStringSubmatch(attrs, -1) {
			n, err := strconv.Atoi(a[2])
			if err != nil || n > 1<<20 {
				return nil, newError("Compile", ErrorTypeInvalidArgument, "binding %q: bad attribute %s", name, a[0])
			}
			if a[1] == "group" {
				group = n
			} else {
				binding = n
			}
		}
		if group < 0 && binding < 0 {
			continue
		}
		if group != 0 {
			return nil, newError("Compile", ErrorTypeInvalidArgument, "binding %q: only @group(0) is supported, got @group(%d)", name, group)
		}
		if binding < 0 {
			return nil, newError("Compile", ErrorTypeInvalidArgument, "binding %q: missing @binding", name)
		}
		var bt BindingType
		switch strings.Join(strings.Fields(strings.NewReplacer("<", " ", ">", " ", ",", " ").Replace(space)), " ") {
		case "storage", "storage read":
			bt = BindingStorageRead
		case "storage read_write":
			bt = BindingStorageReadWrite
		case "uniform":
			bt = BindingUniform
		default:
			return nil, newError("Compile", ErrorTypeInvalidArgument, "binding %q: only buffer bindings (var<storage[, read|read_write]> or var<uniform>) are supported, got var%s", name, space)
		}
		if seen[uint32(binding)] {
			return nil, newError("Compile", ErrorTypeInvalidArgument, "binding %q: @binding(%d) declared twice", name, binding)
		}
		seen[uint32(binding)] = true
		size, _ := wgslSize(typ)
		out = append(out, Binding{Index: uint32(binding), Name: name, Type: bt, MinSize: size})
	}
	if len(out) > maxBindings {
		return nil, newError("Compile", ErrorTypeLimit, "%d bindings, at most %d are supported", len(out), maxBindings)
	}
	sorted := make([]Binding, len(out))
	for _, b := range out {
		if int(b.Index) >= len(out) {
			return nil, newError("Compile", ErrorTypeInvalidArgument, "bindings must be numbered 0..%d, got @binding(%d) (%s)", len(out)-1, b.Index, b.Name)
		}
		sorted[b.Index] = b
	}
	return sorted, nil
}

// wgslSize returns the size and alignment of a host-shareable WGSL type, or
// 0, 0 when the type is not understood. A runtime-sized array counts one
// element.
func wgslSize(t string) (size, align uint64) {
	t = strings.Join(strings.Fields(t), "")
	switch t {
	case "f32", "i32", "u32", "atomic<u32>", "atomic<i32>":
		return 4, 4
	case "f16":
		return 2, 2
	}
	if n, elem, ok := vecType(t); ok {
		s, _ := wgslSize(elem)
		if s == 0 {
			return 0, 0
		}
		switch n {
		case 2:
			return 2 * s, 2 * s
		case 3:
			return 3 * s, 4 * s
		default:
			return 4 * s, 4 * s
		}
	}
	if strings.HasPrefix(t, "array<") && strings.HasSuffix(t, ">") {
		inner := t[len("array<") : len(t)-1]
		elem, count := inner, uint64(1)
		if i := topLevelComma(inner); i >= 0 {
			elem = inner[:i]
			c, err := strconv.ParseUint(strings.TrimRight(inner[i+1:], "iu"), 10, 32)
			if err != nil {
				return 0, 0
			}
			count = c
		}
		s, a := wgslSize(elem)
		if s == 0 {
			return 0, 0
		}
		stride := (s + a - 1) / a * a
		return count * stride, a
	}
	return 0, 0
}

// vecType recognizes vecN<T> and the vecNf/vecNi/vecNu/vecNh shorthands.
func vecType(t string) (n int, elem string, ok bool) {
	if len(t) < 5 || !strings.HasPrefix(t, "vec") || t[3] < '2' || t[3] > '4' {
		return 0, "", false
	}
	n = int(t[3] - '0')
	rest := t[4:]
	switch rest {
	case "f":
		return n, "f32", true
	case "i":
		return n, "i32", true
	case "u":
		return n, "u32", true
	case "h":
		return n, "f16", true
	}
	if strings.HasPrefix(rest, "<") && strings.HasSuffix(rest, ">") {
		return n, rest[1 : len(rest)-1], true
	}
	return 0, "", false
}

func topLevelComma(s string) int {
	depth := 0
	for i, r := range s {
		switch r {
		case '<':
			depth++
		case '>':
			depth--
		case ',':
			if depth == 0 {
				return i
			}
		}
	}
	return -1
}
