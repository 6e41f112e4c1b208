package wgsl

import (
	"fmt"
	"sort"
	"strings"
	"unicode/utf8"
)

// Parse reads the module-scope declarations of the WGSL source.
//
// Before anything else it checks the hard limits of lim (zero fields take
// their defaults, see [Limits]): a source longer than MaxSourceBytes, an
// empty source (nothing but blankspace and comments), nesting deeper than
// MaxNestingDepth and expressions longer than MaxExpressionTokens are
// errors, wherever they occur. Then it parses every declaration, resolves
// the names that function bodies use (with their lexical scopes), checks
// that declarations do not depend on one another in a cycle or in a chain
// longer than MaxDeclarationDepth, resolves and lays out the type of every
// buffer binding, and checks the bindings: each @group and @binding a
// const-expression, host-shareable types, runtime-sized arrays only last,
// and the uniform address space's layout constraints. A module-scope
// texture or sampler with @binding is an error: only buffer bindings are
// supported. Per entry point, it checks that no two of the bindings the
// entry point uses share a @group and @binding, and that it uses no more
// than MaxBindings; bindings that no one entry point uses together may
// share a slot. Overrides must have scalar types and distinct @id values
// below 65536.
//
// Function bodies are read for the names they use, not validated. Every
// error is an [*Error]; Parse never panics and takes time linear in
// len(source). It is safe to call concurrently.
func parseOld(source string, lim Limits) (*Module, error) {
	lim = lim.withDefaults()
	if len(source) > lim.MaxSourceBytes {
		return nil, &Error{Line: 1, Column: 1, Msg: fmt.Sprintf("source is %d bytes, more than the limit of %d", len(source), lim.MaxSourceBytes), Kind: KindLimit}
	}
	// WGSL source is UTF-8 text (the compiler panics, aborting the
	// process, on anything else), and a NUL would cut the C string the
	// compiler receives short of what this front-end checked.
	if !utf8.ValidString(source) {
		off := 0
		for off < len(source) {
			r, n := utf8.DecodeRuneInString(source[off:])
			if r == utf8.RuneError && n <= 1 {
				break
			}
			off += n
		}
		return nil, errorAt(source, off, "source is not valid UTF-8 (byte %#02x)", source[off])
	}
	if i := strings.IndexByte(source, 0); i >= 0 {
		return nil, errorAt(source, i, "source contains a NUL byte")
	}
	toks, err := oldTokenize(source, lim)
	if err != nil {
		return nil, err
	}
	p := &parser{src: source, toks: toks, lim: lim, decls: map[string]*decl{}, enables: map[string]bool{}}
	if err := p.parseModule(); err != nil {
		return nil, err
	}
	res := p.resolve()
	if err := p.checkDependencies(res); err != nil {
		return nil, err
	}
	if err := p.checkMemory(res); err != nil {
		return nil, err
	}
	m := &Module{}
	bindings := map[*decl]Binding{}
	var eps []*decl
	ids := map[uint32]string{}
	for _, d := range p.order {
		switch d.kind {
		case declVar:
			b, ok, err := p.binding(d)
			if err != nil {
				return nil, err
			}
			if ok {
				m.Bindings = append(m.Bindings, b)
				bindings[d] = b
			}
		case declFn:
			ep, ok, err := p.entryPoint(d)
			if err != nil {
				return nil, err
			}
			if ok {
				m.EntryPoints = append(m.EntryPoints, ep)
				eps = append(eps, d)
			}
		case declOverride:
			o, err := p.override(d, ids)
			if err != nil {
				return nil, err
			}
			m.Overrides = append(m.Overrides, o)
		}
	}
	sort.SliceStable(m.Bindings, func(i, j int) bool {
		a, b := m.Bindings[i], m.Bindings[j]
		return a.Group < b.Group || a.Group == b.Group && a.Index < b.Index
	})
	if err := p.interfaces(m, eps, bindings, res); err != nil {
		return nil, err
	}
	return m, nil
}

func findAttr(attrs []attr, name string) (attr, bool) {
	for _, a := range attrs {
		if a.name == name {
			return a, true
		}
	}
	return attr{}, false
}

// attrValue evaluates the one argument of a @group or @binding attribute
// as a non-negative u32.
func (p *parser) attrValue(a attr) (uint32, error) {
	what := "@" + a.name
	if len(a.args) != 1 {
		return 0, p.errf(a.pos, "%s takes one argument", what)
	}
	if s := a.args[0]; s.b-s.a == 1 && p.toks[s.a].kind == tkIdent {
		what = fmt.Sprintf("@%s(%s)", a.name, p.toks[s.a].text)
	}
	v, err := p.evalSpan(a.args[0], what, 0)
	if err != nil {
		if ne, ok := err.(notConstError); ok {
			return 0, ne.e
		}
		return 0, err
	}
	if v.v < 0 || v.v > 1<<32-1 {
		return 0, p.errf(a.pos, "%s: %d is not a valid index", what, v.v)
	}
	return uint32(v.v), nil
}

// binding turns a module-scope var into a Binding when it is one.
func (p *parser) binding(d *decl) (Binding, bool, error) {
	g, hasG := findAttr(d.attrs, "group")
	bi, hasB := findAttr(d.attrs, "binding")
	var kind BindingKind
	switch d.space {
	case "storage":
		switch d.access {
		case "", "read":
			kind = StorageRead
		case "read_write":
			kind = StorageReadWrite
		default:
			return Binding{}, false, p.errf(d.pos, "var %s: invalid access mode %q for var<storage>", d.name, d.access)
		}
	case "uniform":
		if d.access != "" {
			return Binding{}, false, p.errf(d.pos, "var %s: var<uniform> takes no access mode", d.name)
		}
		kind = Uniform
	case "":
		if hasG || hasB {
			what := "no address space"
			if d.typ.a < d.typ.b {
				what = "type " + p.toks[d.typ.a].text
			}
			return Binding{}, false, p.errf(d.pos, "var %s: only buffer bindings are supported (var<storage> or var<uniform>), not %s", d.name, what)
		}
	case "private", "workgroup":
		if hasG || hasB {
			return Binding{}, false, p.errf(d.pos, "var<%s> %s cannot have @group or @binding", d.space, d.name)
		}
		return Binding{}, false, nil
	default:
		return Binding{}, false, p.errf(d.pos, "var %s: unknown address space %q", d.name, d.space)
	}
	if kind == 0 {
		// A handle (texture or sampler) without @group/@binding is
		// invalid WGSL; naga reports it.
		return Binding{}, false, nil
	}
	if !hasG || !hasB {
		return Binding{}, false, p.errf(d.pos, "var<%s> %s needs both @group and @binding", d.space, d.name)
	}
	if d.init.a < d.init.b {
		return Binding{}, false, p.errf(d.pos, "var<%s> %s cannot have an initializer", d.space, d.name)
	}
	if d.typ.a == d.typ.b {
		return Binding{}, false, p.errf(d.pos, "var<%s> %s needs a type", d.space, d.name)
	}
	group, err := p.attrValue(g)
	if err != nil {
		return Binding{}, false, err
	}
	index, err := p.attrValue(bi)
	if err != nil {
		return Binding{}, false, err
	}
	fail := func(pos int, format string, args ...any) (Binding, bool, error) {
		if pos < 0 {
			pos = d.pos
		}
		return Binding{}, false, p.errf(pos, "binding %d (%s): %s", index, d.name, fmt.Sprintf(format, args...))
	}
	t, err := p.resolveType(d.typ, 0)
	if err != nil {
		if e, ok := err.(*Error); ok {
			return Binding{}, false, &Error{Line: e.Line, Column: e.Column, Msg: fmt.Sprintf("binding %d (%s): %s", index, d.name, e.Msg)}
		}
		return fail(-1, "%v", err)
	}
	if t.noShare != "" {
		return fail(-1, "%s (buffer bindings need host-shareable types)", t.noShare)
	}
	if t.atomic && kind != StorageReadWrite {
		return fail(-1, "%s contains an atomic type, which needs var<storage, read_write>", t.name)
	}
	if kind == Uniform {
		if pos, msg := p.checkUniform(t, map[*decl]bool{}); msg != "" {
			return fail(pos, "%s", msg)
		}
	}
	if t.size == 0 {
		return fail(-1, "type %s has no size", t.name)
	}
	return Binding{Group: group, Index: index, Name: d.name, Kind: kind, Type: t.name, MinSize: t.size}, true, nil
}

// entryPoint reads the stage and workgroup size of fn d.
func (p *parser) entryPoint(d *decl) (EntryPoint, bool, error) {
	ep := EntryPoint{Name: d.name}
	for _, a := range d.attrs {
		switch a.name {
		case "compute", "vertex", "fragment":
			if ep.Stage != "" {
				return ep, false, p.errf(a.pos, "fn %s has two shader stages, @%s and @%s", d.name, ep.Stage, a.name)
			}
			ep.Stage = a.name
		}
	}
	wg, hasWG := findAttr(d.attrs, "workgroup_size")
	if ep.Stage == "" {
		if hasWG {
			return ep, false, p.errf(wg.pos, "@workgroup_size on fn %s, which is not a compute entry point", d.name)
		}
		return ep, false, nil
	}
	if ep.Stage != "compute" {
		if hasWG {
			return ep, false, p.errf(wg.pos, "@workgroup_size on @%s fn %s", ep.Stage, d.name)
		}
		return ep, true, nil
	}
	if !hasWG {
		return ep, false, p.errf(d.pos, "@compute fn %s needs @workgroup_size", d.name)
	}
	if len(wg.args) < 1 || len(wg.args) > 3 {
		return ep, false, p.errf(wg.pos, "@workgroup_size takes one to three arguments")
	}
	ep.WorkgroupSize = [3]uint32{1, 1, 1}
	for k, s := range wg.args {
		v, err := p.evalSpan(s, "@workgroup_size", 0)
		if err != nil {
			if _, ok := err.(notConstError); ok {
				ep.WorkgroupSize[k] = 0
				continue
			}
			return ep, false, err
		}
		if v.v < 1 || v.v > 1<<32-1 {
			return ep, false, p.errf(p.toks[s.a].pos, "@workgroup_size: %d is not a positive u32", v.v)
		}
		ep.WorkgroupSize[k] = uint32(v.v)
	}
	return ep, true, nil
}
