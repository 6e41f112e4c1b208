package wgsl

import (
	"fmt"
	"sort"
	"strings"
	"unicode/utf8"
)

// BindingKind is how a module declares a binding: a buffer, a texture, a
// storage texture or a sampler.
type BindingKind uint8

const (
	// StorageRead is var<storage> or var<storage, read>.
	StorageRead BindingKind = iota + 1
	// StorageReadWrite is var<storage, read_write>.
	StorageReadWrite
	// Uniform is var<uniform>.
	Uniform
	// Texture is a sampled texture: texture_1d<T>, texture_2d<T>,
	// texture_2d_array<T>, texture_cube<T>, texture_cube_array<T>,
	// texture_3d<T>, texture_multisampled_2d<T> or a texture_depth_*.
	Texture
	// StorageTexture is texture_storage_1d/2d/2d_array/3d<format, access>.
	StorageTexture
	// Sampler is sampler or sampler_comparison.
	Sampler
)

var bindingKindNames = []string{"", "storage-read", "storage-read-write", "uniform", "texture", "storage-texture", "sampler"}

// IsBuffer reports whether k is a buffer binding's kind.
func (k BindingKind) IsBuffer() bool { return k >= StorageRead && k <= Uniform }

// String returns the kind's name: "storage-read", "storage-read-write",
// "uniform", "texture", "storage-texture" or "sampler".
func (k BindingKind) String() string { return enumName(k, bindingKindNames, "BindingKind") }

// Binding is one binding: a module-scope var with @group and @binding that
// is a buffer (var<storage> or var<uniform>), or a texture, storage texture
// or sampler (a var of a handle type, with no address space).
type Binding struct {
	// Group and Index are the values of @group and @binding.
	Group, Index uint32
	// Name is the variable's name.
	Name string
	// Kind is the address space and access mode.
	Kind BindingKind
	// Type is the variable's type with aliases resolved, printed
	// canonically: "array<u32, 256>", "vec3<f32>", "S",
	// "texture_2d<f32>", "texture_storage_2d<rgba8unorm, write>",
	// "sampler".
	Type string
	// MinSize is the smallest buffer, in bytes, that may be bound: the
	// size of Type; for a runtime-sized array, or a struct ending in one,
	// the size with one element in that array (the fixed part plus one
	// element stride, rounded up to the struct's alignment), as WebGPU's
	// minimum binding size and naga compute it. It is positive for a
	// buffer binding and 0 for the others.
	MinSize uint64
	// Texture is what a Texture or StorageTexture binding declares.
	Texture TextureBinding
	// Sampler is a Sampler binding's type.
	Sampler SamplerKind
}

// EntryPoint is one @compute, @vertex or @fragment function.
type EntryPoint struct {
	// Name is the function's name.
	Name string
	// Stage is "compute", "vertex" or "fragment".
	Stage string
	// WorkgroupSize is the @workgroup_size of a compute entry point, with
	// omitted dimensions 1. A dimension that is not a const-expression
	// (it uses an override) is 0; for other stages all three are 0.
	WorkgroupSize [3]uint32
	// Bindings are the bindings the entry point statically uses
	// (WGSL's resource interface of the entry point): the variables named
	// in its function or, transitively, in any function it calls, sorted
	// by (Group, Index); no two share both, and there are at most
	// MaxBindings. A name that a local (parameter, let, var or const)
	// shadows is not a use. Nil when none.
	Bindings []Binding
}

// Module is what [Parse] or [Analyze] reads from a WGSL module. Neither keeps
// it: the caller owns it, and its File, which it may rewrite (a rewrite does
// not update the other fields). Reading a Module concurrently is safe.
type Module struct {
	// Bindings are every binding the module declares, used or not,
	// sorted by (Group, Index), and in source order within one (Group,
	// Index): two variables may share a slot when no entry point uses
	// both, so the same Group and Index may appear more than once. Use
	// [EntryPoint.Bindings] for what one pipeline binds.
	Bindings []Binding
	// EntryPoints are the entry points in source order.
	EntryPoints []EntryPoint
	// Overrides are the override declarations in source order.
	Overrides []Override
	// File is the syntax tree the module was read from: the one given to
	// [Analyze], or the one [Parse] read. The Module shares it with the
	// caller; the analysis does not keep or change it.
	File *File
}

// Parse reads a WGSL module: it checks the source's size and encoding,
// reads it into a tree ([ParseFile], here also bounding each function body
// by MaxFunctionTokens) and analyzes the tree ([Analyze]). The source is
// lexed and parsed once; [Module.File] is the tree.
//
// Before anything else it checks the hard limits of lim (zero fields take
// their defaults, see [Limits]): a source longer than MaxSourceBytes, an
// empty source (nothing but blankspace and comments), nesting deeper than
// MaxNestingDepth, expressions longer than MaxExpressionTokens, modules of
// more than MaxModuleTokens tokens and function bodies of more than
// MaxFunctionTokens are errors, wherever they occur. Then it parses every
// declaration and function body; [Analyze] lists the checks of the
// module's meaning that follow.
//
// Every error is an [*Error]; Parse never panics and takes time linear in
// len(source). It is safe to call concurrently.
func Parse(source string, lim Limits) (*Module, error) {
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
	toks, err := tokenize(source, lim)
	if err != nil {
		return nil, err
	}
	tp := &treeParser{src: source, toks: toks, maxFuncTokens: lim.MaxFunctionTokens}
	f, err := tp.file()
	if err != nil {
		return nil, err
	}
	return analyze(f, source, lim)
}

// Analyze checks the meaning of the module f, a tree read from source (its
// positions are byte offsets into source, which errors turn into lines and
// columns; a node a rewrite made has the position of the node it
// replaced), and returns what [Parse] returns for it, with File f.
//
// In declaration order it checks the module-scope declarations: directives
// before declarations, no name declared twice or shadowing a predeclared
// type, consts with initializers, attributes only on var, override and fn,
// struct members unique and at least one, var template lists an address
// space and an optional access mode. It resolves the names that function
// bodies use (with their lexical scopes), checks that declarations do not
// depend on one another in a cycle or in a chain longer than
// MaxDeclarationDepth, bounds private, workgroup and function memory
// (MaxPrivateBytes, MaxWorkgroupBytes), resolves and lays out the type of
// every buffer binding, and checks the bindings: each @group and @binding a
// const-expression, host-shareable types, runtime-sized arrays only last,
// and the uniform address space's layout constraints. A texture or sampler
// binding (a var of a handle type, with no address space) is reported with
// what it declares (see [TextureBinding], [SamplerKind]): a sampled type of
// f32, i32 or u32, a storage texture's texel format one WGSL allows for
// storage and its access write, read or read_write; texture_external, a
// handle type in an address space and a handle without @group and
// @binding are errors. Per entry point, it checks that no two of the
// bindings the entry point uses (of any kind) share a @group and @binding,
// and that it uses no more than MaxBindings; bindings that no one entry
// point uses together may share a slot. Overrides must have scalar types and distinct @id values
// below 65536.
//
// The source-level limits (size, nesting, expression and token counts)
// are [ParseFile]'s and [Parse]'s; Analyze does not count tokens. Function
// bodies are read for the names they use, not type-checked. Every error is
// an [*Error]. On a tree as ParseFile reads it (or rewritten without nil
// where the grammar has a node) Analyze never panics; it takes time linear
// in the size of the tree, and neither keeps nor changes f. It is safe to
// call concurrently, also on one tree.
func Analyze(f *File, source string, lim Limits) (*Module, error) {
	return analyze(f, source, lim.withDefaults())
}

// analyze is Analyze with lim's defaults applied.
func analyze(f *File, source string, lim Limits) (*Module, error) {
	a := &analysis{src: source, lim: lim, decls: map[string]Decl{}, enables: map[string]bool{},
		consts: map[*VarDecl]*constState{}, structs: map[*StructDecl]*structState{}}
	if err := a.declarations(f); err != nil {
		return nil, err
	}
	res := a.resolve()
	if err := a.checkDependencies(res); err != nil {
		return nil, err
	}
	if err := a.checkMemory(res); err != nil {
		return nil, err
	}
	m := &Module{File: f}
	bindings := map[*VarDecl]Binding{}
	var eps []*FuncDecl
	ids := map[uint32]string{}
	for _, d := range a.order {
		switch d := d.(type) {
		case *VarDecl:
			switch d.Keyword {
			case "var":
				b, ok, err := a.binding(d)
				if err != nil {
					return nil, err
				}
				if ok {
					m.Bindings = append(m.Bindings, b)
					bindings[d] = b
				}
			case "override":
				o, err := a.override(d, ids)
				if err != nil {
					return nil, err
				}
				m.Overrides = append(m.Overrides, o)
			}
		case *FuncDecl:
			ep, ok, err := a.entryPoint(d)
			if err != nil {
				return nil, err
			}
			if ok {
				m.EntryPoints = append(m.EntryPoints, ep)
				eps = append(eps, d)
			}
		}
	}
	sort.SliceStable(m.Bindings, func(i, j int) bool {
		a, b := m.Bindings[i], m.Bindings[j]
		return a.Group < b.Group || a.Group == b.Group && a.Index < b.Index
	})
	if err := a.interfaces(m, eps, bindings, res); err != nil {
		return nil, err
	}
	return m, nil
}

func findAttribute(attrs []*Attribute, name string) (*Attribute, bool) {
	for _, at := range attrs {
		if at.Name == name {
			return at, true
		}
	}
	return nil, false
}

// attrIndex evaluates the one argument of a @group, @binding or @id
// attribute as a non-negative u32.
func (a *analysis) attrIndex(at *Attribute) (uint32, error) {
	what := "@" + at.Name
	if len(at.Args) != 1 {
		return 0, a.errf(at.At, "%s takes one argument", what)
	}
	switch x := at.Args[0].(type) {
	case *Ident:
		if x.Template == nil {
			what = fmt.Sprintf("@%s(%s)", at.Name, x.Name)
		}
	case *Literal:
		if x.Kind == LiteralBool {
			what = fmt.Sprintf("@%s(%s)", at.Name, x.Text)
		}
	}
	v, err := a.eval(at.Args[0], what, 0)
	if err != nil {
		if ne, ok := err.(notConstError); ok {
			return 0, ne.e
		}
		return 0, err
	}
	if v.v < 0 || v.v > 1<<32-1 {
		return 0, a.errf(at.At, "%s: %d is not a valid index", what, v.v)
	}
	return uint32(v.v), nil
}

// binding turns a module-scope var into a Binding when it is one: a
// buffer (var<storage>, var<uniform>) or a handle (a texture or sampler,
// declared with no address space).
func (a *analysis) binding(d *VarDecl) (Binding, bool, error) {
	g, hasG := findAttribute(d.Attrs, "group")
	bi, hasB := findAttribute(d.Attrs, "binding")
	space, access := varSpace(d)
	var kind BindingKind
	switch space {
	case "storage":
		switch access {
		case "", "read":
			kind = StorageRead
		case "read_write":
			kind = StorageReadWrite
		default:
			return Binding{}, false, a.errf(d.NamePos, "var %s: invalid access mode %q for var<storage>", d.Name, access)
		}
	case "uniform":
		if access != "" {
			return Binding{}, false, a.errf(d.NamePos, "var %s: var<uniform> takes no access mode", d.Name)
		}
		kind = Uniform
	case "":
		return a.handleBinding(d, g, bi)
	case "private", "workgroup":
		if hasG || hasB {
			return Binding{}, false, a.errf(d.NamePos, "var<%s> %s cannot have @group or @binding", space, d.Name)
		}
		if d.Type != nil {
			h, err := a.handleType(d.Type)
			if err != nil {
				return Binding{}, false, err
			}
			if h != nil {
				return Binding{}, false, a.errf(d.NamePos, "var<%s> %s: %s is a handle type, which takes no address space (var %s: %s, with @group and @binding)", space, d.Name, h.name, d.Name, h.name)
			}
		}
		return Binding{}, false, nil
	default:
		return Binding{}, false, a.errf(d.NamePos, "var %s: unknown address space %q", d.Name, space)
	}
	if !hasG || !hasB {
		return Binding{}, false, a.errf(d.NamePos, "var<%s> %s needs both @group and @binding", space, d.Name)
	}
	if d.Init != nil {
		return Binding{}, false, a.errf(d.NamePos, "var<%s> %s cannot have an initializer", space, d.Name)
	}
	if d.Type == nil {
		return Binding{}, false, a.errf(d.NamePos, "var<%s> %s needs a type", space, d.Name)
	}
	group, err := a.attrIndex(g)
	if err != nil {
		return Binding{}, false, err
	}
	index, err := a.attrIndex(bi)
	if err != nil {
		return Binding{}, false, err
	}
	fail := func(pos int, format string, args ...any) (Binding, bool, error) {
		if pos < 0 {
			pos = d.NamePos
		}
		return Binding{}, false, a.errf(pos, "binding %d (%s): %s", index, d.Name, fmt.Sprintf(format, args...))
	}
	t, err := a.resolveType(d.Type, 0)
	if err != nil {
		if e, ok := err.(*Error); ok {
			return Binding{}, false, &Error{Line: e.Line, Column: e.Column, Msg: fmt.Sprintf("binding %d (%s): %s", index, d.Name, e.Msg), Kind: e.Kind}
		}
		return fail(-1, "%v", err)
	}
	if t.handle != nil {
		return fail(-1, "%s is a handle type, which takes no address space: declare it var %s: %s", t.name, d.Name, t.name)
	}
	if t.noShare != "" {
		return fail(-1, "%s (buffer bindings need host-shareable types)", t.noShare)
	}
	if t.atomic && kind != StorageReadWrite {
		return fail(-1, "%s contains an atomic type, which needs var<storage, read_write>", t.name)
	}
	if kind == Uniform {
		if pos, msg := checkUniform(t, map[*StructDecl]bool{}); msg != "" {
			return fail(pos, "%s", msg)
		}
	}
	if t.size == 0 {
		return fail(-1, "type %s has no size", t.name)
	}
	return Binding{Group: group, Index: index, Name: d.Name, Kind: kind, Type: t.name, MinSize: t.size}, true, nil
}

// handleBinding turns a module-scope var with no address space, g and bi
// its @group and @binding attributes (nil when absent), into a Binding:
// only a texture or sampler takes no address space.
func (a *analysis) handleBinding(d *VarDecl, g, bi *Attribute) (Binding, bool, error) {
	var t *rtype
	if d.Type != nil {
		var err error
		if t, err = a.resolveType(d.Type, 0); err != nil {
			if e, ok := err.(*Error); ok {
				return Binding{}, false, &Error{Line: e.Line, Column: e.Column, Msg: "var " + d.Name + ": " + e.Msg, Kind: e.Kind}
			}
			return Binding{}, false, err
		}
	}
	if t == nil || t.handle == nil {
		if g != nil || bi != nil {
			what := "no address space"
			if t != nil {
				what = "type " + t.name + " and no address space"
			}
			return Binding{}, false, a.errf(d.NamePos, "var %s: a binding is a buffer (var<storage> or var<uniform>), a texture or a sampler, not %s", d.Name, what)
		}
		// A module-scope var with neither an address space nor a handle
		// type is invalid WGSL; naga reports it.
		return Binding{}, false, nil
	}
	if g == nil || bi == nil {
		return Binding{}, false, a.errf(d.NamePos, "var %s: %s needs both @group and @binding", d.Name, t.name)
	}
	if d.Init != nil {
		return Binding{}, false, a.errf(d.NamePos, "var %s: %s cannot have an initializer", d.Name, t.name)
	}
	group, err := a.attrIndex(g)
	if err != nil {
		return Binding{}, false, err
	}
	index, err := a.attrIndex(bi)
	if err != nil {
		return Binding{}, false, err
	}
	h := t.handle
	return Binding{Group: group, Index: index, Name: d.Name, Kind: h.kind, Type: t.name, Texture: h.texture, Sampler: h.sampler}, true, nil
}

// entryPoint reads the stage and workgroup size of function d.
func (a *analysis) entryPoint(d *FuncDecl) (EntryPoint, bool, error) {
	ep := EntryPoint{Name: d.Name}
	for _, at := range d.Attrs {
		switch at.Name {
		case "compute", "vertex", "fragment":
			if ep.Stage != "" {
				return ep, false, a.errf(at.At, "fn %s has two shader stages, @%s and @%s", d.Name, ep.Stage, at.Name)
			}
			ep.Stage = at.Name
		}
	}
	wg, hasWG := findAttribute(d.Attrs, "workgroup_size")
	if ep.Stage == "" {
		if hasWG {
			return ep, false, a.errf(wg.At, "@workgroup_size on fn %s, which is not a compute entry point", d.Name)
		}
		return ep, false, nil
	}
	if ep.Stage != "compute" {
		if hasWG {
			return ep, false, a.errf(wg.At, "@workgroup_size on @%s fn %s", ep.Stage, d.Name)
		}
		return ep, true, nil
	}
	if !hasWG {
		return ep, false, a.errf(d.NamePos, "@compute fn %s needs @workgroup_size", d.Name)
	}
	if len(wg.Args) < 1 || len(wg.Args) > 3 {
		return ep, false, a.errf(wg.At, "@workgroup_size takes one to three arguments")
	}
	ep.WorkgroupSize = [3]uint32{1, 1, 1}
	for k, x := range wg.Args {
		v, err := a.eval(x, "@workgroup_size", 0)
		if err != nil {
			if _, ok := err.(notConstError); ok {
				ep.WorkgroupSize[k] = 0
				continue
			}
			return ep, false, err
		}
		if v.v < 1 || v.v > 1<<32-1 {
			return ep, false, a.errf(x.Pos(), "@workgroup_size: %d is not a positive u32", v.v)
		}
		ep.WorkgroupSize[k] = uint32(v.v)
	}
	return ep, true, nil
}
