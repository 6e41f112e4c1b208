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
func selectAdapter(want string, backend Backend, list []AdapterInfo) (int, error) {
	const op = "Open"
	of := func(a AdapterInfo) bool { return backend == BackendAny || a.Backend == backend }
	if i, err := strconv.Atoi(want); err == nil && strings.TrimLeft(want, "0123456789") == "" {
		if i >= len(list) {
			return -1, &Error{Op: op, Type: ErrorTypeNoAdapter,
				Message: fmt.Sprintf("adapter %d: there are %d adapters%s", i, len(list), listAdapters(list))}
		}
		if !of(list[i]) {
			return -1, &Error{Op: op, Type: ErrorTypeNoAdapter,
				Message: fmt.Sprintf("adapter %d is a %v adapter, not %v%s", i, list[i].Backend, backend, listAdapters(list))}
		}
		return i, nil
	}
	lower := strings.ToLower(want)
	var exact, sub []int
	for i, a := range list {
		if !of(a) {
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
	in := ""
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
