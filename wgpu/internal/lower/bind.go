package lower

import "github.com/streamgate/streamgate/wgpu/wgsl"

// Bound is a user's module read by the front-end with its overrides bound:
// what [Lower] hands naga, and what a browser's compiler, current and so
// needing no lowering, gets as it is (wgpu's js build).
type Bound struct {
	// Front is the front-end's reading of the module, the overrides'
	// values in (array counts, workgroup sizes).
	Front *wgsl.Module
	// Source is the module with the overrides bound: the user's source
	// itself when it has none to bind, else the tree printed.
	Source string
	// Changed reports whether overrides were bound (Source was printed).
	Changed bool

	user  string      // the user's source
	marks []wgsl.Mark // Source's marks back to user, when Changed
}

// Bind reads source with the front-end ([wgsl.Parse]) and binds the
// overrides to constants (by name or by @id, [BindOverrides]); when there
// were any, the front-end's analyses run again on the rewritten tree
// ([wgsl.Analyze]) and it is printed. Errors are *wgsl.Error, or an
// *Error of KindInvalid for an override's value. It needs no compiler: it
// is steps 1 and 2 of [Lower].
func Bind(source string, constants map[string]float64, limits wgsl.Limits) (*Bound, error) {
	m, err := wgsl.Parse(source, limits)
	if err != nil {
		return nil, err
	}
	f := m.File
	changed, err := BindOverrides(m, constants)
	if err != nil {
		return nil, &Error{KindInvalid, err.Error()}
	}
	b := &Bound{Front: m, Source: source, Changed: changed, user: source}
	if changed {
		// Array counts and workgroup sizes may use the overrides: analyze
		// the tree again with the values in (its positions are still the
		// user's), then print it.
		if b.Front, err = wgsl.Analyze(f, source, limits); err != nil {
			return nil, err
		}
		b.Source, b.marks = wgsl.SprintMarks(f)
	}
	return b, nil
}

// UserPosition maps a line and column (1-based) of b.Source to the user's
// source.
func (b *Bound) UserPosition(line, col int) (int, int) {
	if !b.Changed {
		return line, col
	}
	return userPosition(b.user, b.Source, b.marks, line, col)
}
