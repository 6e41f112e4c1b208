package wgsl

import "fmt"

// Span is a half-open range [Start, End) of byte offsets into the source
// given to [Parse]: source[s.Start:s.End] is its text. The zero Span stands
// for something absent. A Span is a plain value.
type Span struct {
	Start, End int
}

// Override is one module-scope override declaration, as written. Its spans
// are exact, so that a caller can rewrite the declaration in the source
// (into a const, say) by replacing bytes. An Override is a plain value.
type Override struct {
	// Name is the override's name.
	Name string
	// ID is the value of @id, when HasID.
	ID uint32
	// HasID reports an @id attribute.
	HasID bool
	// Type is the declared type with aliases resolved, printed
	// canonically: "bool", "i32", "u32", "f32" or "f16"; "" when the
	// declaration has no type (it is inferred from the initializer).
	Type string
	// HasDefault reports an initializer.
	HasDefault bool

	// Keyword is the override keyword.
	Keyword Span
	// IDAttr is the @id(...) attribute, from '@' to ')'; zero when none.
	IDAttr Span
	// TypeSpan is the declared type as written (an alias stays its
	// name), without the ':'; zero when none.
	TypeSpan Span
	// Init is the initializer expression, without the '=' and ';'; zero
	// when none.
	Init Span

	// Decl is the declaration in the tree [Parse] read ([Module.File]):
	// source[Decl.Pos():Decl.End] is the whole declaration, from the '@'
	// of its first attribute (the override keyword when it has none) to
	// just past its ';'.
	Decl *VarDecl
}

// maxOverrideID is the largest @id: WebGPU identifies overrides by 16-bit
// numbers, and naga stores them as u16.
const maxOverrideID = 1<<16 - 1

// exprSpan returns the bytes of expression x, or the zero Span when x is
// nil.
func exprSpan(x Expr) Span {
	if x == nil {
		return Span{}
	}
	return Span{x.Pos(), End(x)}
}

// override reflects override declaration d. ids maps the @id values seen
// so far to the overrides that use them.
func (a *analysis) override(d *VarDecl, ids map[uint32]string) (Override, error) {
	o := Override{
		Name:       d.Name,
		HasDefault: d.Init != nil,
		Keyword:    Span{d.At, d.At + len(d.Keyword)},
		TypeSpan:   exprSpan(d.Type),
		Init:       exprSpan(d.Init),
		Decl:       d,
	}
	if at, ok := findAttribute(d.Attrs, "id"); ok {
		id, err := a.attrIndex(at)
		if err != nil {
			return o, err
		}
		if id > maxOverrideID {
			return o, a.errf(at.At, "override %s: @id(%d) is more than %d", d.Name, id, maxOverrideID)
		}
		if other, ok := ids[id]; ok {
			return o, a.errf(at.At, "override %s: @id(%d) is already used by override %s", d.Name, id, other)
		}
		ids[id] = d.Name
		o.ID, o.HasID, o.IDAttr = id, true, Span{at.At, at.Rparen + 1}
	}
	if d.Type != nil {
		t, err := a.resolveType(d.Type, 0)
		if err != nil {
			if e, ok := err.(*Error); ok {
				return o, &Error{Line: e.Line, Column: e.Column, Msg: fmt.Sprintf("override %s: %s", d.Name, e.Msg)}
			}
			return o, err
		}
		if t.kind != tScalar {
			return o, a.errf(d.Type.Pos(), "override %s: type %s is not a scalar (bool, i32, u32, f32 or f16)", d.Name, t.name)
		}
		o.Type = t.name
	}
	return o, nil
}
