package wgsl

// resolution is what [analysis.resolve] finds in the function declarations
// of a module: the module-scope declaration each identifier refers to, once
// the names a function declares itself are scoped out. It is written once
// by resolve and only read afterwards.
type resolution struct {
	// types maps each identifier of a function declaration that refers
	// to a module-scope struct or alias to that declaration.
	types map[*Ident]Decl
	// uses lists the module-scope declarations that each function refers
	// to, in its attributes, parameter and return types and body, each
	// once, in the order of their first reference. A call is a reference
	// to a function.
	uses map[*FuncDecl][]Decl
}

// resolve walks every function declaration with WGSL's lexical scoping and
// records which module-scope declarations each one refers to.
//
// A formal parameter is in scope in the body. A let, var or const declared
// in a body is in scope after its declaration to the end of the innermost
// enclosing block; one declared in the initializer of a for statement, to
// the end of that statement. A name in scope as a local is not a reference,
// nor is the name being declared, a member name (x.name, a member or
// swizzle), an attribute name, the arguments of @builtin, @interpolate and
// @diagnostic, or the template list of a var (its address space and access
// mode).
func (a *analysis) resolve() *resolution {
	res := &resolution{types: map[*Ident]Decl{}, uses: map[*FuncDecl][]Decl{}}
	w := &scopeWalker{a: a, res: res, active: map[string]int{}, lastUser: map[Decl]*FuncDecl{}}
	for _, d := range a.order {
		if fd, ok := d.(*FuncDecl); ok {
			w.fn(fd)
		}
	}
	return res
}

// scopeWalker walks one function at a time, as a [visitor]. Its state is
// reset between functions.
type scopeWalker struct {
	a   *analysis
	res *resolution
	fd  *FuncDecl // the function being walked

	active   map[string]int // names in scope as locals: how many declarations of each are visible
	names    []string       // the visible local declarations, innermost last
	marks    []int          // the open scopes: where each starts in names
	lastUser map[Decl]*FuncDecl
}

// fn walks function d: its attributes, the types of its parameters and
// result, then its body, in which the parameters are in scope.
func (w *scopeWalker) fn(d *FuncDecl) {
	w.fd = d
	clear(w.active)
	w.names = w.names[:0]
	w.marks = w.marks[:0]
	walk(w.visitor(), d)
}

// visitor returns w as the visitor of walk.
func (w *scopeWalker) visitor() visitor { return visitor{w.enter, w.leave} }

// enter resolves an identifier that is not a local, skips the arguments of
// the attributes that name no declarations, declares a local after its
// type and initializer (not its template list), and opens the scope of a
// block, a loop, its continuing statement or a for statement.
func (w *scopeWalker) enter(n Node) bool {
	switch n := n.(type) {
	case *Attribute:
		return argsName(n)
	case *Ident:
		if w.active[n.Name] == 0 {
			w.reference(n)
		}
	case *VarDecl:
		walker{w.visitor()}.attrs(n.Attrs, n.Type, n.Init)
		w.declare(n.Name)
		return false
	case *BlockStmt, *LoopStmt, *ContinuingStmt, *ForStmt:
		w.marks = append(w.marks, len(w.names))
		if n == Node(w.fd.Body) {
			for _, p := range w.fd.Params {
				w.declare(p.Name)
			}
		}
	}
	return true
}

// leave closes the scope that enter opened, taking its locals out of
// scope.
func (w *scopeWalker) leave(n Node) {
	switch n.(type) {
	case *BlockStmt, *LoopStmt, *ContinuingStmt, *ForStmt:
		mark := w.marks[len(w.marks)-1]
		w.marks = w.marks[:len(w.marks)-1]
		for _, name := range w.names[mark:] {
			w.active[name]--
		}
		w.names = w.names[:mark]
	}
}

// argsName reports whether the arguments of attribute a may name
// declarations: those of @builtin, @interpolate and @diagnostic do not.
func argsName(a *Attribute) bool {
	switch a.Name {
	case "builtin", "interpolate", "diagnostic":
		return false
	}
	return true
}

// reference records identifier id, which is not a local.
func (w *scopeWalker) reference(id *Ident) {
	u, ok := w.a.decls[id.Name]
	if !ok {
		return
	}
	switch u.(type) {
	case *StructDecl, *AliasDecl:
		w.res.types[id] = u
	}
	if w.lastUser[u] != w.fd {
		w.lastUser[u] = w.fd
		w.res.uses[w.fd] = append(w.res.uses[w.fd], u)
	}
}

// declare brings name into scope in the innermost scope.
func (w *scopeWalker) declare(name string) {
	w.active[name]++
	w.names = append(w.names, name)
}
