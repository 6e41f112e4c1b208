package wgsl

import "fmt"

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
		Decl:       &VarDecl{At: p.byteSpan(d.whole).Start, End: p.byteSpan(d.whole).End}, // the old parser's span, for the differential test
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
