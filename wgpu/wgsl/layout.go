package wgsl

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// maxTypeSize is the largest size a type may have: naga lays types out in
// u32 byte counts.
const maxTypeSize = math.MaxUint32

// typeKind classifies a resolved type.
type typeKind uint8

const (
	tScalar typeKind = iota + 1
	tVector
	tMatrix
	tAtomic
	tArray
	tStruct
	tOther // handle (texture, sampler) and pointer types: not host-shareable
)

// rtype is a resolved type with its memory layout.
type rtype struct {
	kind  typeKind
	name  string // printed canonically
	align uint64
	size  uint64 // for a runtime-sized array, one element's stride; for a struct ending in one, as naga computes it

	runtime bool        // a runtime-sized array, or a struct whose last member is one
	stride  uint64      // array: element stride
	elem    *rtype      // array, atomic: the element type
	sd      *StructDecl // struct: its declaration
	members []rmember
	noShare string      // why the type is not host-shareable, or ""
	atomic  bool        // contains an atomic type
	handle  *handleInfo // a texture or sampler type: what its binding declares
}

// rmember is one laid-out struct member.
type rmember struct {
	name   string
	pos    int
	typ    *rtype
	offset uint64
	align  uint64 // the member's alignment, @align included
	size   uint64 // the member's size, @size included
}

func roundUp(k, n uint64) uint64 { return (n + k - 1) / k * k }

var scalarTypes = map[string]*rtype{
	"i32":  {kind: tScalar, name: "i32", align: 4, size: 4},
	"u32":  {kind: tScalar, name: "u32", align: 4, size: 4},
	"f32":  {kind: tScalar, name: "f32", align: 4, size: 4},
	"f16":  {kind: tScalar, name: "f16", align: 2, size: 2},
	"bool": {kind: tScalar, name: "bool", align: 4, size: 4, noShare: "bool is not host-shareable"},
}

// suffixScalar maps the suffix of predeclared aliases (vec3f) to a scalar.
var suffixScalar = map[byte]string{'f': "f32", 'i': "i32", 'u': "u32", 'h': "f16"}

// predeclared reports whether name is a predeclared type or type generator
// that Parse resolves itself.
func predeclared(name string) bool {
	if _, ok := scalarTypes[name]; ok {
		return true
	}
	switch name {
	case "array", "atomic", "ptr":
		return true
	}
	if _, _, ok := vecName(name); ok {
		return true
	}
	if _, _, _, ok := matName(name); ok {
		return true
	}
	return false
}

// vecName recognizes vecN and its aliases vecNf, vecNi, vecNu, vecNh.
func vecName(s string) (n int, scalar string, ok bool) {
	if len(s) < 4 || s[:3] != "vec" || s[3] < '2' || s[3] > '4' {
		return 0, "", false
	}
	n = int(s[3] - '0')
	switch len(s) {
	case 4:
		return n, "", true
	case 5:
		if sc, ok := suffixScalar[s[4]]; ok {
			return n, sc, true
		}
	}
	return 0, "", false
}

// matName recognizes matCxR and its aliases matCxRf, matCxRh.
func matName(s string) (c, r int, scalar string, ok bool) {
	if len(s) < 6 || s[:3] != "mat" || s[3] < '2' || s[3] > '4' || s[4] != 'x' || s[5] < '2' || s[5] > '4' {
		return 0, 0, "", false
	}
	c, r = int(s[3]-'0'), int(s[5]-'0')
	switch len(s) {
	case 6:
		return c, r, "", true
	case 7:
		if s[6] == 'f' || s[6] == 'h' {
			return c, r, suffixScalar[s[6]], true
		}
	}
	return 0, 0, "", false
}

// structState is the memo of one struct's layout in [analysis.structs].
type structState struct {
	state uint8 // 1 in progress, 2 done
	r     *rtype
	err   error
}

// resolveType resolves the type x, a type specifier of the tree.
func (a *analysis) resolveType(x Expr, depth int) (*rtype, error) {
	id, ok := x.(*Ident)
	if !ok {
		if x == nil {
			return nil, a.errf(-1, "expected a type")
		}
		return nil, a.errf(x.Pos(), "unknown type %s", firstText(x))
	}
	return a.resolveNamed(id.Name, id.At, id.Template, depth)
}

// resolveNamed resolves the type name<tmpl> written at offset pos; tmpl is
// nil when there is no template list.
func (a *analysis) resolveNamed(name string, pos int, args []Expr, depth int) (*rtype, error) {
	if depth > a.lim.MaxDeclarationDepth+a.lim.MaxNestingDepth {
		return nil, a.limitf(pos, "type %s nests deeper than the limits allow", name)
	}
	hasTmpl := args != nil
	noArgs := func() error {
		if hasTmpl {
			return a.errf(pos, "type %s takes no template arguments", name)
		}
		return nil
	}
	if st, ok := scalarTypes[name]; ok {
		if err := noArgs(); err != nil {
			return nil, err
		}
		if name == "f16" && !a.enables["f16"] {
			return nil, a.errf(pos, "f16 needs the directive 'enable f16;'")
		}
		return st, nil
	}
	if n, sc, ok := vecName(name); ok {
		elem, err := a.scalarArg(name, pos, sc, args, depth)
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
		elem, err := a.scalarArg(name, pos, sc, args, depth)
		if err != nil {
			return nil, err
		}
		if elem.name != "f32" && elem.name != "f16" {
			return nil, a.errf(pos, "matrix elements must be f32 or f16, not %s", elem.name)
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
			return nil, a.errf(pos, "atomic takes one template argument")
		}
		elem, err := a.resolveType(args[0], depth+1)
		if err != nil {
			return nil, err
		}
		if elem.name != "u32" && elem.name != "i32" {
			return nil, a.errf(pos, "atomic<%s>: the element must be u32 or i32", elem.name)
		}
		return &rtype{kind: tAtomic, name: "atomic<" + elem.name + ">", align: 4, size: 4, elem: elem, atomic: true}, nil
	case "array":
		return a.resolveArray(pos, args, depth)
	}
	if isHandleName(name) {
		return a.resolveHandle(name, pos, args, depth)
	}
	if why, ok := unsupportedTypes[name]; ok {
		return nil, a.unsupportedf(pos, "%s: %s", name, why)
	}
	if name == "ptr" {
		return &rtype{kind: tOther, name: name, noShare: name + " is not host-shareable"}, nil
	}
	d, ok := a.decls[name]
	if !ok {
		return nil, a.errf(pos, "unknown type %s", name)
	}
	if err := noArgs(); err != nil {
		return nil, err
	}
	switch d := d.(type) {
	case *AliasDecl:
		return a.resolveType(d.Type, depth+1)
	case *StructDecl:
		return a.structLayout(d, depth+1)
	}
	return nil, a.errf(pos, "%s is a %s, not a type", name, declKind(d))
}

// scalarArg resolves the element of vecN<T> or matCxR<T>, or the scalar its
// alias suffix sc names.
func (a *analysis) scalarArg(name string, pos int, sc string, args []Expr, depth int) (*rtype, error) {
	if sc != "" {
		if args != nil {
			return nil, a.errf(pos, "type %s takes no template arguments", name)
		}
		if sc == "f16" && !a.enables["f16"] {
			return nil, a.errf(pos, "%s needs the directive 'enable f16;'", name)
		}
		return scalarTypes[sc], nil
	}
	if len(args) != 1 {
		return nil, a.errf(pos, "%s takes one template argument", name)
	}
	elem, err := a.resolveType(args[0], depth+1)
	if err != nil {
		return nil, err
	}
	if elem.kind != tScalar {
		return nil, a.errf(pos, "%s<%s>: the element must be a scalar", name, elem.name)
	}
	return elem, nil
}

func (a *analysis) resolveArray(pos int, args []Expr, depth int) (*rtype, error) {
	if len(args) != 1 && len(args) != 2 {
		return nil, a.errf(pos, "array takes an element type and an optional count")
	}
	elem, err := a.resolveType(args[0], depth+1)
	if err != nil {
		return nil, err
	}
	if elem.runtime {
		return nil, a.errf(pos, "array<%s>: the element type must have a fixed size", elem.name)
	}
	if elem.kind == tOther {
		return nil, a.errf(pos, "array<%s>: %s", elem.name, elem.noShare)
	}
	stride := roundUp(elem.align, elem.size)
	r := &rtype{kind: tArray, align: elem.align, stride: stride, elem: elem, noShare: elem.noShare, atomic: elem.atomic}
	if len(args) == 1 {
		r.name = "array<" + elem.name + ">"
		r.runtime = true
		r.size = stride
		return r, nil
	}
	count := args[1]
	v, err := a.eval(count, "array count", depth)
	if err != nil {
		if _, ok := err.(notConstError); ok {
			return nil, a.errf(count.Pos(), "array count: %s (only workgroup arrays may be sized by an override)", strings.TrimPrefix(errMsg(err), "array count: "))
		}
		return nil, err
	}
	if v.v <= 0 {
		return nil, a.errf(count.Pos(), "array count must be positive, got %d", v.v)
	}
	if v.v > maxTypeSize || uint64(v.v)*stride > maxTypeSize {
		return nil, a.errf(count.Pos(), "array<%s, %d> is larger than %d bytes", elem.name, v.v, uint64(maxTypeSize))
	}
	r.name = "array<" + elem.name + ", " + strconv.FormatInt(v.v, 10) + ">"
	r.size = uint64(v.v) * stride
	return r, nil
}

// structLayout lays out struct d, memoized in a.structs.
func (a *analysis) structLayout(d *StructDecl, depth int) (*rtype, error) {
	if st := a.structs[d]; st != nil {
		if st.state == 1 {
			return nil, a.errf(d.NamePos, "struct %s contains itself", d.Name)
		}
		return st.r, st.err
	}
	st := &structState{state: 1}
	a.structs[d] = st
	r, err := a.layoutMembers(d, depth)
	st.state, st.r, st.err = 2, r, err
	return r, err
}

func (a *analysis) layoutMembers(d *StructDecl, depth int) (*rtype, error) {
	r := &rtype{kind: tStruct, name: d.Name, sd: d, align: 1}
	var end uint64
	for i, m := range d.Members {
		mt, err := a.resolveType(m.Type, depth+1)
		if err != nil {
			return nil, err
		}
		if mt.kind == tOther {
			return nil, a.errf(m.NamePos, "struct %s: member %s: %s", d.Name, m.Name, mt.noShare)
		}
		last := i == len(d.Members)-1
		if mt.runtime && !last {
			return nil, a.errf(m.NamePos, "runtime-sized array must be the last member of struct %s (member %s)", d.Name, m.Name)
		}
		align, size := mt.align, mt.size
		for _, at := range m.Attrs {
			switch at.Name {
			case "align", "size":
				if len(at.Args) != 1 {
					return nil, a.errf(at.At, "@%s takes one argument", at.Name)
				}
				v, err := a.eval(at.Args[0], "@"+at.Name, depth)
				if err != nil {
					return nil, err
				}
				if at.Name == "align" {
					if v.v < 1 || v.v > maxTypeSize || v.v&(v.v-1) != 0 {
						return nil, a.errf(at.At, "struct %s: member %s: @align(%d) is not a positive power of two", d.Name, m.Name, v.v)
					}
					if uint64(v.v)%mt.align != 0 {
						return nil, a.errf(at.At, "struct %s: member %s: @align(%d) is not a multiple of the alignment %d of %s", d.Name, m.Name, v.v, mt.align, mt.name)
					}
					align = uint64(v.v)
				} else {
					if mt.runtime {
						return nil, a.errf(at.At, "struct %s: member %s: @size cannot apply to a runtime-sized array", d.Name, m.Name)
					}
					if v.v < int64(mt.size) || v.v > maxTypeSize {
						return nil, a.errf(at.At, "struct %s: member %s: @size(%d) is smaller than the size %d of %s", d.Name, m.Name, v.v, mt.size, mt.name)
					}
					size = uint64(v.v)
				}
			}
		}
		off := roundUp(align, end)
		end = off + size
		if end > maxTypeSize {
			return nil, a.errf(m.NamePos, "struct %s is larger than %d bytes", d.Name, uint64(maxTypeSize))
		}
		r.members = append(r.members, rmember{name: m.Name, pos: m.NamePos, typ: mt, offset: off, align: align, size: size})
		r.align = max(r.align, align)
		if mt.noShare != "" && r.noShare == "" {
			r.noShare = "struct " + d.Name + ": member " + m.Name + ": " + mt.noShare
		}
		r.atomic = r.atomic || mt.atomic
		r.runtime = r.runtime || mt.runtime
	}
	r.size = roundUp(r.align, end)
	if r.size > maxTypeSize {
		return nil, a.errf(d.NamePos, "struct %s is larger than %d bytes", d.Name, uint64(maxTypeSize))
	}
	return r, nil
}

// checkUniform checks the uniform address space's layout constraints on t
// and returns a description of the first violation, with its position (-1:
// the binding's).
func checkUniform(t *rtype, seen map[*StructDecl]bool) (int, string) {
	switch t.kind {
	case tArray:
		if t.runtime {
			return -1, "runtime-sized " + t.name + " is not allowed in the uniform address space"
		}
		if t.stride%16 != 0 {
			return -1, fmt.Sprintf("%s has element stride %d; the uniform address space needs a multiple of 16", t.name, t.stride)
		}
		return checkUniform(t.elem, seen)
	case tStruct:
		if seen[t.sd] {
			return -1, ""
		}
		seen[t.sd] = true
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
			if pos, msg := checkUniform(m.typ, seen); msg != "" {
				return pos, msg
			}
		}
	}
	return -1, ""
}
