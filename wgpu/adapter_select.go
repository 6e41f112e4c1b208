package wgpu

import (
	"fmt"
	"strconv"
	"strings"
)

// selectAdapter returns the index in list (as [Adapters] returns it) of the
// adapter want chooses, per [Options].Adapter: a decimal index, else an
// exact name ignoring case, else a unique case-insensitive substring of a
// name. A backend other than BackendAny keeps only that backend's adapters.
// Its errors list the adapters there are.
//
// Only adapters of a primary backend (Vulkan, Metal, D3D12) can be chosen:
// wgpu-native 0.17's OpenGL backend panics across the C boundary (aborting
// the process) on a headless machine, as lavapipe's OpenGL adapter does at
// the first buffer, so an index of another backend's adapter is refused with
// an [ErrorTypeUnsupported] error and names match the primary ones only.
func selectAdapter(want string, backend Backend, list []AdapterInfo) (int, error) {
	const op = "Open"
	of := func(a AdapterInfo) bool { return backend == BackendAny || a.Backend == backend }
	if i, err := strconv.Atoi(want); err == nil && strings.TrimLeft(want, "0123456789") == "" {
		switch {
		case i >= len(list):
			return -1, &Error{Op: op, Type: ErrorTypeNoAdapter,
				Message: fmt.Sprintf("adapter %d: there are %d adapters%s", i, len(list), listAdapters(list))}
		case !of(list[i]):
			return -1, &Error{Op: op, Type: ErrorTypeNoAdapter,
				Message: fmt.Sprintf("adapter %d is on the %v backend, not %v%s", i, list[i].Backend, backend, listAdapters(list))}
		case !primaryBackend(list[i].Backend):
			return -1, &Error{Op: op, Type: ErrorTypeUnsupported,
				Message: fmt.Sprintf("adapter %d is on the %v backend: this package drives Vulkan, Metal and D3D12 adapters only "+
					"(wgpu-native 0.17's %v backend can abort the process)%s", i, list[i].Backend, list[i].Backend, listAdapters(list))}
		}
		return i, nil
	}
	lower := strings.ToLower(want)
	var exact, sub []int
	for i, a := range list {
		if !of(a) || !primaryBackend(a.Backend) {
			continue
		}
		name := strings.ToLower(a.Name)
		if name == lower {
			exact = append(exact, i)
		}
		if strings.Contains(name, lower) {
			sub = append(sub, i)
		}
	}
	match := sub
	if len(exact) > 0 {
		match = exact
	}
	in := " among the Vulkan, Metal and D3D12 adapters"
	if backend != BackendAny {
		in = " among the " + backend.String() + " adapters"
	}
	switch len(match) {
	case 1:
		return match[0], nil
	case 0:
		return -1, &Error{Op: op, Type: ErrorTypeNoAdapter,
			Message: fmt.Sprintf("no adapter named %q%s%s", want, in, listAdapters(list))}
	}
	idx := make([]string, len(match))
	for j, i := range match {
		idx[j] = strconv.Itoa(i)
	}
	return -1, &Error{Op: op, Type: ErrorTypeInvalidArgument,
		Message: fmt.Sprintf("adapter name %q is ambiguous%s: it matches adapters %s; choose one by index%s",
			want, in, strings.Join(idx, ", "), listAdapters(list))}
}

// primaryBackend reports whether b is one of the backends [Options].Adapter
// can choose: Vulkan, Metal or D3D12.
func primaryBackend(b Backend) bool {
	return b == BackendVulkan || b == BackendMetal || b == BackendD3D12
}

// listAdapters formats list for an error message: "; adapters: 0: name
// (backend, type), 1: ...", or "; there are no adapters".
func listAdapters(list []AdapterInfo) string {
	if len(list) == 0 {
		return "; there are no adapters"
	}
	var b strings.Builder
	b.WriteString("; adapters: ")
	for i, a := range list {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%d: %q (%v, %v)", i, a.Name, a.Backend, a.Type)
	}
	return b.String()
}
