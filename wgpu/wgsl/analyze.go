package wgsl

// analysis is one run of [Analyze] over a tree: the tables its walks fill
// in. The nodes of the tree are only read; everything the walks find or
// memoize is kept here, keyed by node.
type analysis struct {
	src string
	lim Limits

	decls   map[string]Decl // the module-scope declarations by name
	order   []Decl          // the named module-scope declarations in source order
	enables map[string]bool // the names of the enable directives

	consts  map[*VarDecl]*constState     // const-evaluation of module-scope consts
	structs map[*StructDecl]*structState // struct layouts
}

func (a *analysis) errf(off int, format string, args ...any) *Error {
	return errorAt(a.src, off, format, args...)
}

// unsupportedf is errf for what no WebGPU device binds (KindUnsupported).
func (a *analysis) unsupportedf(off int, format string, args ...any) *Error {
	e := errorAt(a.src, off, format, args...)
	e.Kind = KindUnsupported
	return e
}

// limitf is errf for a source past one of the [Limits] (KindLimit).
func (a *analysis) limitf(off int, format string, args ...any) *Error {
	e := errorAt(a.src, off, format, args...)
	e.Kind = KindLimit
	return e
}

// declKind names the kind of a module-scope declaration: "const",
// "override", "var", "alias", "struct" or "fn".
func declKind(d Decl) string {
	switch d := d.(type) {
	case *VarDecl:
		return d.Keyword
	case *AliasDecl:
		return "alias"
	case *StructDecl:
		return "struct"
	case *FuncDecl:
		return "fn"
	}
	return ""
}

// declName returns the name a declaration declares, "" for a directive or
// a const_assert.
func declName(d Decl) string {
	switch d := d.(type) {
	case *VarDecl:
		return d.Name
	case *AliasDecl:
		return d.Name
	case *StructDecl:
		return d.Name
	case *FuncDecl:
		return d.Name
	}
	return ""
}

// declNamePos returns the offset of the name a declaration declares.
func declNamePos(d Decl) int {
	switch d := d.(type) {
	case *VarDecl:
		return d.NamePos
	case *AliasDecl:
		return d.NamePos
	case *StructDecl:
		return d.NamePos
	case *FuncDecl:
		return d.NamePos
	}
	return d.Pos()
}

// varSpace returns the address space and access mode of var d's template
// list, "" for those absent; [analysis.declarations] has checked that each
// is a plain name.
func varSpace(d *VarDecl) (space, access string) {
	if len(d.Template) > 0 {
		if id, ok := d.Template[0].(*Ident); ok {
			space = id.Name
		}
	}
	if len(d.Template) > 1 {
		if id, ok := d.Template[1].(*Ident); ok {
			access = id.Name
		}
	}
	return space, access
}

// declarations checks the module-scope declarations of f in source order
// and fills in a.decls, a.order and a.enables.
func (a *analysis) declarations(f *File) error {
	sawDecl := false
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *DirectiveDecl:
			if sawDecl {
				return a.errf(d.At, "directive %q after a declaration", d.Keyword)
			}
			if d.Keyword == "enable" {
				for _, n := range d.Names {
					a.enables[n] = true
				}
			}
			continue
		case *ConstAssert:
			sawDecl = true
			continue
		case *VarDecl:
			if err := a.checkVarDecl(d); err != nil {
				return err
			}
		case *StructDecl:
			seen := make(map[string]bool, len(d.Members))
			for _, m := range d.Members {
				if seen[m.Name] {
					return a.errf(m.NamePos, "struct %s: member %s declared twice", d.Name, m.Name)
				}
				seen[m.Name] = true
			}
			if len(d.Members) == 0 {
				return a.errf(d.Lbrace, "struct %s has no members", d.Name)
			}
		case *AliasDecl, *FuncDecl:
		default:
			continue
		}
		sawDecl = true
		name, pos := declName(d), declNamePos(d)
		if old, ok := a.decls[name]; ok {
			line, _ := Position(a.src, declNamePos(old))
			return a.errf(pos, "%s redeclared (first declared as a %s on line %d)", name, declKind(old), line)
		}
		if _, fn := d.(*FuncDecl); !fn && predeclared(name) {
			// Shadowing a predeclared type or function is legal WGSL but
			// would change what the names below mean; refuse it here.
			return a.errf(pos, "%s shadows a predeclared name, which this front-end does not support", name)
		}
		a.decls[name] = d
		a.order = append(a.order, d)
	}
	return nil
}

// checkVarDecl checks the form of a module-scope var, const or override.
func (a *analysis) checkVarDecl(d *VarDecl) error {
	switch d.Keyword {
	case "var":
		if n := len(d.Template); d.Template != nil && (n == 0 || n > 2) {
			return a.errf(d.At+len("var"), "var<...> takes an address space and an optional access mode")
		}
		for _, x := range d.Template {
			if id, ok := x.(*Ident); !ok || id.Template != nil {
				return a.errf(x.Pos(), "malformed var<...> template list")
			}
		}
	case "const":
		if d.Init == nil {
			return a.errf(d.End-1, "const %s needs an initializer", d.Name)
		}
		if len(d.Attrs) > 0 {
			return a.errf(d.Attrs[0].At, "const %s cannot have attributes", d.Name)
		}
	case "override":
		if d.Init == nil && d.Type == nil {
			return a.errf(d.End-1, "override %s needs a type or an initializer", d.Name)
		}
	}
	return nil
}
