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

	// Decl is the whole declaration: from the '@' of its first attribute
	// (the override keyword when it has none) to just past its ';'.
	Decl Span
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
}

// maxOverrideID is the largest @id: WebGPU identifies overrides by 16-bit
// numbers, and naga stores them as u16.
const maxOverrideID = 1<<16 - 1

// byteSpan returns the bytes covered by the tokens of s, or the zero Span
// when s is empty.
func (p *parser) byteSpan(s span) Span {
	if s.a >= s.b {
		return Span{}
	}
	last := p.toks[s.b-1]
	return Span{p.toks[s.a].pos, last.pos + len(last.text)}
}

// override reflects override declaration d. ids maps the @id values seen
// so far to the overrides that use them.
func (p *parser) override(d *decl, ids map[uint32]string) (Override, error) {
	o := Override{
		Name:       d.name,
		HasDefault: d.init.a < d.init.b,
		Decl:       p.byteSpan(d.whole),
		Keyword:    p.byteSpan(span{d.kw, d.kw + 1}),
		TypeSpan:   p.byteSpan(d.typ),
		Init:       p.byteSpan(d.init),
	}
	if a, ok := findAttr(d.attrs, "id"); ok {
		id, err := p.attrValue(a)
		if err != nil {
			return o, err
		}
		if id > maxOverrideID {
			return o, p.errf(a.pos, "override %s: @id(%d) is more than %d", d.name, id, maxOverrideID)
		}
		if other, ok := ids[id]; ok {
			return o, p.errf(a.pos, "override %s: @id(%d) is already used by override %s", d.name, id, other)
		}
		ids[id] = d.name
		o.ID, o.HasID, o.IDAttr = id, true, Span{a.pos, a.end}
	}
	if d.typ.a < d.typ.b {
		t, err := p.resolveType(d.typ, 0)
		if err != nil {
			if e, ok := err.(*Error); ok {
				return o, &Error{Line: e.Line, Column: e.Column, Msg: fmt.Sprintf("override %s: %s", d.name, e.Msg)}
			}
			return o, err
		}
		if t.kind != tScalar {
			return o, p.errf(p.toks[d.typ.a].pos, "override %s: type %s is not a scalar (bool, i32, u32, f32 or f16)", d.name, t.name)
		}
		o.Type = t.name
	}
	return o, nil
}
