package wgsl

import (
	"fmt"
	"strconv"
	"strings"
)

// resolveType resolves the type specifier in s.
func (p *parser) resolveType(s span, depth int) (*rtype, error) {
	t := p.toks[s.a]
	if depth > p.lim.MaxDeclarationDepth+p.lim.MaxNestingDepth {
		return nil, p.limitf(t.pos, "type %s nests deeper than the limits allow", t.text)
	}
	var args []span
	if s.a+1 < s.b {
		args = p.splitArgs(s.a+2, s.b-1)
	}
	hasTmpl := s.a+1 < s.b
	noArgs := func() error {
		if hasTmpl {
			return p.errf(t.pos, "type %s takes no template arguments", t.text)
		}
		return nil
	}
	name := t.text
	if st, ok := scalarTypes[name]; ok {
		if err := noArgs(); err != nil {
			return nil, err
		}
		if name == "f16" && !p.enables["f16"] {
			return nil, p.errf(t.pos, "f16 needs the directive 'enable f16;'")
		}
		return st, nil
	}
	if n, sc, ok := vecName(name); ok {
		elem, err := p.scalarArg(t, sc, args, hasTmpl, depth)
		if err != nil {
			return nil, err
		}
		r := &rtype{kind: tVector, name: fmt.Sprintf("vec%d<%s>", n, elem.name), noShare: elem.noShare}
		r.size = uint64(n) * elem.size
		r.align = r.size
		if n == 3 {
			r.align = 4 * elem.size
		}
		return r, nil
	}
	if c, rows, sc, ok := matName(name); ok {
		elem, err := p.scalarArg(t, sc, args, hasTmpl, depth)
		if err != nil {
			return nil, err
		}
		if elem.name != "f32" && elem.name != "f16" {
			return nil, p.errf(t.pos, "matrix elements must be f32 or f16, not %s", elem.name)
		}
		col := uint64(rows) * elem.size
		align := col
		if rows == 3 {
			align = 4 * elem.size
		}
		return &rtype{kind: tMatrix, name: fmt.Sprintf("mat%dx%d<%s>", c, rows, elem.name),
			align: align, size: uint64(c) * roundUp(align, col)}, nil
	}
	switch name {
	case "atomic":
		if len(args) != 1 {
			return nil, p.errf(t.pos, "atomic takes one template argument")
		}
		elem, err := p.resolveType(args[0], depth+1)
		if err != nil {
			return nil, err
		}
		if elem.name != "u32" && elem.name != "i32" {
			return nil, p.errf(t.pos, "atomic<%s>: the element must be u32 or i32", elem.name)
		}
		return &rtype{kind: tAtomic, name: "atomic<" + elem.name + ">", align: 4, size: 4, elem: elem, atomic: true}, nil
	case "array":
		return p.resolveArray(t, args, depth)
	}
	if strings.HasPrefix(name, "texture_") || name == "sampler" || name == "sampler_comparison" || name == "ptr" {
		return &rtype{kind: tOther, name: name, noShare: name + " is not host-shareable"}, nil
	}
	d, ok := p.decls[name]
	if !ok {
		return nil, p.errf(t.pos, "unknown type %s", name)
	}
	if err := noArgs(); err != nil {
		return nil, err
	}
	switch d.kind {
	case declAlias:
		return p.resolveType(d.typ, depth+1)
	case declStruct:
		return p.structLayout(d, depth+1)
	}
	return nil, p.errf(t.pos, "%s is a %s, not a type", name, declKindNames[d.kind])
}

// scalarArg resolves the element of vecN<T> or matCxR<T>, or the scalar its
// alias suffix names.
func (p *parser) scalarArg(t token, sc string, args []span, hasTmpl bool, depth int) (*rtype, error) {
	if sc != "" {
		if hasTmpl {
			return nil, p.errf(t.pos, "type %s takes no template arguments", t.text)
		}
		if sc == "f16" && !p.enables["f16"] {
			return nil, p.errf(t.pos, "%s needs the directive 'enable f16;'", t.text)
		}
		return scalarTypes[sc], nil
	}
	if len(args) != 1 {
		return nil, p.errf(t.pos, "%s takes one template argument", t.text)
	}
	elem, err := p.resolveType(args[0], depth+1)
	if err != nil {
		return nil, err
	}
	if elem.kind != tScalar {
		return nil, p.errf(t.pos, "%s<%s>: the element must be a scalar", t.text, elem.name)
	}
	return elem, nil
}

func (p *parser) resolveArray(t token, args []span, depth int) (*rtype, error) {
	if len(args) != 1 && len(args) != 2 {
		return nil, p.errf(t.pos, "array takes an element type and an optional count")
	}
	elem, err := p.resolveType(args[0], depth+1)
	if err != nil {
		return nil, err
	}
	if elem.runtime {
		return nil, p.errf(t.pos, "array<%s>: the element type must have a fixed size", elem.name)
	}
	if elem.kind == tOther {
		return nil, p.errf(t.pos, "array<%s>: %s", elem.name, elem.noShare)
	}
	stride := roundUp(elem.align, elem.size)
	r := &rtype{kind: tArray, align: elem.align, stride: stride, elem: elem, noShare: elem.noShare, atomic: elem.atomic}
	if len(args) == 1 {
		r.name = "array<" + elem.name + ">"
		r.runtime = true
		r.size = stride
		return r, nil
	}
	v, err := p.evalSpan(args[1], "array count", depth)
	if err != nil {
		if _, ok := err.(notConstError); ok {
			return nil, p.errf(p.toks[args[1].a].pos, "array count: %s (only workgroup arrays may be sized by an override)", strings.TrimPrefix(errMsg(err), "array count: "))
		}
		return nil, err
	}
	if v.v <= 0 {
		return nil, p.errf(p.toks[args[1].a].pos, "array count must be positive, got %d", v.v)
	}
	if v.v > maxTypeSize || uint64(v.v)*stride > maxTypeSize {
		return nil, p.errf(p.toks[args[1].a].pos, "array<%s, %d> is larger than %d bytes", elem.name, v.v, uint64(maxTypeSize))
	}
	r.name = "array<" + elem.name + ", " + strconv.FormatInt(v.v, 10) + ">"
	r.size = uint64(v.v) * stride
	return r, nil
}

// structLayout lays out struct d, memoized.
func (p *parser) structLayout(d *decl, depth int) (*rtype, error) {
	switch d.layoutState {
	case 1:
		return nil, p.errf(d.pos, "struct %s contains itself", d.name)
	case 2:
		return d.layout, d.layoutErr
	}
	d.layoutState = 1
	r, err := p.layoutMembers(d, depth)
	d.layoutState, d.layout, d.layoutErr = 2, r, err
	return r, err
}

func (p *parser) layoutMembers(d *decl, depth int) (*rtype, error) {
	r := &rtype{kind: tStruct, name: d.name, st: d, align: 1}
	var end uint64
	for i, m := range d.members {
		mt, err := p.resolveType(m.typ, depth+1)
		if err != nil {
			return nil, err
		}
		if mt.kind == tOther {
			return nil, p.errf(m.pos, "struct %s: member %s: %s", d.name, m.name, mt.noShare)
		}
		last := i == len(d.members)-1
		if mt.runtime && !last {
			return nil, p.errf(m.pos, "runtime-sized array must be the last member of struct %s (member %s)", d.name, m.name)
		}
		align, size := mt.align, mt.size
		for _, a := range m.attrs {
			switch a.name {
			case "align", "size":
				if len(a.args) != 1 {
					return nil, p.errf(a.pos, "@%s takes one argument", a.name)
				}
				v, err := p.evalSpan(a.args[0], "@"+a.name, depth)
				if err != nil {
					return nil, err
				}
				if a.name == "align" {
					if v.v < 1 || v.v > maxTypeSize || v.v&(v.v-1) != 0 {
						return nil, p.errf(a.pos, "struct %s: member %s: @align(%d) is not a positive power of two", d.name, m.name, v.v)
					}
					if uint64(v.v)%mt.align != 0 {
						return nil, p.errf(a.pos, "struct %s: member %s: @align(%d) is not a multiple of the alignment %d of %s", d.name, m.name, v.v, mt.align, mt.name)
					}
					align = uint64(v.v)
				} else {
					if mt.runtime {
						return nil, p.errf(a.pos, "struct %s: member %s: @size cannot apply to a runtime-sized array", d.name, m.name)
					}
					if v.v < int64(mt.size) || v.v > maxTypeSize {
						return nil, p.errf(a.pos, "struct %s: member %s: @size(%d) is smaller than the size %d of %s", d.name, m.name, v.v, mt.size, mt.name)
					}
					size = uint64(v.v)
				}
			}
		}
		off := roundUp(align, end)
		end = off + size
		if end > maxTypeSize {
			return nil, p.errf(m.pos, "struct %s is larger than %d bytes", d.name, uint64(maxTypeSize))
		}
		r.members = append(r.members, rmember{name: m.name, pos: m.pos, typ: mt, offset: off, align: align, size: size})
		r.align = max(r.align, align)
		if mt.noShare != "" && r.noShare == "" {
			r.noShare = "struct " + d.name + ": member " + m.name + ": " + mt.noShare
		}
		r.atomic = r.atomic || mt.atomic
		r.runtime = r.runtime || mt.runtime
	}
	r.size = roundUp(r.align, end)
	if r.size > maxTypeSize {
		return nil, p.errf(d.pos, "struct %s is larger than %d bytes", d.name, uint64(maxTypeSize))
	}
	return r, nil
}

// checkUniform checks the uniform address space's layout constraints on t
// and returns a description of the first violation, with its position.
func (p *parser) checkUniform(t *rtype, seen map[*decl]bool) (int, string) {
	switch t.kind {
	case tArray:
		if t.runtime {
			return -1, "runtime-sized " + t.name + " is not allowed in the uniform address space"
		}
		if t.stride%16 != 0 {
			return -1, fmt.Sprintf("%s has element stride %d; the uniform address space needs a multiple of 16", t.name, t.stride)
		}
		return p.checkUniform(t.elem, seen)
	case tStruct:
		if seen[t.st] {
			return -1, ""
		}
		seen[t.st] = true
		for i, m := range t.members {
			req := m.typ.align
			if m.typ.kind == tStruct || m.typ.kind == tArray {
				req = roundUp(16, req)
			}
			if m.offset%req != 0 {
				return m.pos, fmt.Sprintf("struct %s: member %s at offset %d must be aligned to %d in the uniform address space", t.name, m.name, m.offset, req)
			}
			if m.typ.kind == tStruct && i+1 < len(t.members) {
				if gap := t.members[i+1].offset - m.offset; gap < roundUp(16, m.typ.size) {
					return t.members[i+1].pos, fmt.Sprintf("struct %s: member %s at offset %d must start at least %d bytes after struct member %s in the uniform address space", t.name, t.members[i+1].name, t.members[i+1].offset, roundUp(16, m.typ.size), m.name)
				}
			}
			if pos, msg := p.checkUniform(m.typ, seen); msg != "" {
				return pos, msg
			}
		}
	}
	return -1, ""
}
