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

// scopeWalker walks one function at a time. Its state is reset between
// functions.
type scopeWalker struct {
	a   *analysis
	res *resolution
	fd  *FuncDecl // the function being walked

	active   map[string]int // names in scope as locals: how many declarations of each are visible
	names    []string       // the visible local declarations, innermost last
	lastUser map[Decl]*FuncDecl
}

func (w *scopeWalker) fn(d *FuncDecl) {
	w.fd = d
	clear(w.active)
	w.names = w.names[:0]
	w.attrs(d.Attrs)
	for _, p := range d.Params {
		w.attrs(p.Attrs)
		w.expr(p.Type)
	}
	w.attrs(d.ResultAttrs)
	w.expr(d.Result)
	for _, p := range d.Params {
		w.declare(p.Name)
	}
	if d.Body != nil {
		w.stmts(d.Body.Attrs, d.Body.Stmts)
	}
}

// attrs resolves the arguments of attributes, but for those of @builtin,
// @interpolate and @diagnostic, which name no declarations.
func (w *scopeWalker) attrs(as []*Attribute) {
	for _, at := range as {
		switch at.Name {
		case "builtin", "interpolate", "diagnostic":
			continue
		}
		for _, x := range at.Args {
			w.expr(x)
		}
	}
}

func (w *scopeWalker) exprs(xs []Expr) {
	for _, x := range xs {
		w.expr(x)
	}
}

func (w *scopeWalker) expr(x Expr) {
	switch x := x.(type) {
	case *Ident:
		if w.active[x.Name] == 0 {
			w.reference(x)
		}
		w.exprs(x.Template)
	case *CallExpr:
		w.expr(x.Fn)
		w.exprs(x.Args)
	case *ParenExpr:
		w.expr(x.X)
	case *UnaryExpr:
		w.expr(x.X)
	case *BinaryExpr:
		w.expr(x.X)
		w.expr(x.Y)
	case *MemberExpr:
		w.expr(x.X)
	case *IndexExpr:
		w.expr(x.X)
		w.expr(x.Index)
	}
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

// open starts a scope; close ends it, taking its locals out of scope.
func (w *scopeWalker) open() int { return len(w.names) }

func (w *scopeWalker) close(mark int) {
	for _, n := range w.names[mark:] {
		w.active[n]--
	}
	w.names = w.names[:mark]
}

// stmts resolves a block's attributes and statements, in a scope of its
// own.
func (w *scopeWalker) stmts(attrs []*Attribute, ss []Stmt) {
	w.attrs(attrs)
	mark := w.open()
	for _, s := range ss {
		w.stmt(s)
	}
	w.close(mark)
}

func (w *scopeWalker) block(b *BlockStmt) {
	if b != nil {
		w.stmts(b.Attrs, b.Stmts)
	}
}

func (w *scopeWalker) stmt(s Stmt) {
	switch s := s.(type) {
	case *BlockStmt:
		w.block(s)
	case *DeclStmt:
		d := s.Decl
		w.attrs(d.Attrs)
		w.expr(d.Type)
		w.expr(d.Init)
		w.declare(d.Name)
	case *ReturnStmt:
		w.expr(s.X)
	case *IfStmt:
		w.attrs(s.Attrs)
		w.expr(s.Cond)
		w.block(s.Then)
		if s.Else != nil {
			w.stmt(s.Else)
		}
	case *SwitchStmt:
		w.attrs(s.Attrs)
		w.expr(s.X)
		w.attrs(s.BodyAttrs)
		for _, c := range s.Clauses {
			w.exprs(c.Selectors)
			w.block(c.Body)
		}
	case *LoopStmt:
		w.attrs(s.Attrs)
		w.attrs(s.BodyAttrs)
		mark := w.open()
		for _, st := range s.Body {
			w.stmt(st)
		}
		if c := s.Continuing; c != nil {
			w.attrs(c.Attrs)
			inner := w.open()
			for _, st := range c.Stmts {
				w.stmt(st)
			}
			w.expr(c.BreakIf)
			w.close(inner)
		}
		w.close(mark)
	case *ForStmt:
		w.attrs(s.Attrs)
		mark := w.open()
		if s.Init != nil {
			w.stmt(s.Init)
		}
		w.expr(s.Cond)
		if s.Update != nil {
			w.stmt(s.Update)
		}
		w.block(s.Body)
		w.close(mark)
	case *WhileStmt:
		w.attrs(s.Attrs)
		w.expr(s.Cond)
		w.block(s.Body)
	case *AssignStmt:
		w.expr(s.LHS)
		w.expr(s.RHS)
	case *IncDecStmt:
		w.expr(s.X)
	case *CallStmt:
		w.expr(s.Call)
	case *ConstAssertStmt:
		w.expr(s.Assert.Cond)
	}
}
