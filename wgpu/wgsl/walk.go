package wgsl

// Inspect walks the tree under node in source order, calling f on each
// node; when f returns false it skips that node's children. Nil children
// are not visited. As go/ast.Inspect, it is the way a pass reads a tree:
// f may change the fields of the node it is given (replace a child), and
// the walk goes on into the new children.
func Inspect(node Node, f func(Node) bool) {
	if node == nil || !f(node) {
		return
	}
	w := inspector(f)
	if !w.decl(node) && !w.expr(node) {
		w.stmt(node)
	}
}

// inspector walks the children of one node for Inspect: decl, expr and stmt
// each visit the children of the kinds of node they name and report
// whether node was one of them.
type inspector func(Node) bool

func (w inspector) attrs(as []*Attribute) {
	for _, a := range as {
		Inspect(a, w)
	}
}

func (w inspector) exprs(xs []Expr) {
	for _, x := range xs {
		if x != nil {
			Inspect(x, w)
		}
	}
}

func (w inspector) stmts(ss []Stmt) {
	for _, s := range ss {
		Inspect(s, w)
	}
}

// x visits an expression child; a nil Expr interface is no child.
func (w inspector) x(x Expr) {
	if x != nil {
		Inspect(x, w)
	}
}

// decl: the file, declarations and their parts.
func (w inspector) decl(node Node) bool {
	switch n := node.(type) {
	case *File:
		for _, d := range n.Decls {
			Inspect(d, w)
		}
	case *Attribute:
		w.exprs(n.Args)
	case *DirectiveDecl:
	case *VarDecl:
		w.attrs(n.Attrs)
		w.exprs(n.Template)
		w.x(n.Type)
		w.x(n.Init)
	case *AliasDecl:
		w.x(n.Type)
	case *StructDecl:
		for _, m := range n.Members {
			Inspect(m, w)
		}
	case *Member:
		w.attrs(n.Attrs)
		w.x(n.Type)
	case *FuncDecl:
		w.attrs(n.Attrs)
		for _, p := range n.Params {
			Inspect(p, w)
		}
		w.attrs(n.ResultAttrs)
		w.x(n.Result)
		if n.Body != nil {
			Inspect(n.Body, w)
		}
	case *Param:
		w.attrs(n.Attrs)
		w.x(n.Type)
	case *ConstAssert:
		w.x(n.Cond)
	default:
		return false
	}
	return true
}

// expr: expressions.
func (w inspector) expr(node Node) bool {
	switch n := node.(type) {
	case *Ident:
		w.exprs(n.Template)
	case *Literal:
	case *CallExpr:
		Inspect(n.Fn, w)
		w.exprs(n.Args)
	case *ParenExpr:
		w.x(n.X)
	case *UnaryExpr:
		w.x(n.X)
	case *BinaryExpr:
		w.x(n.X)
		w.x(n.Y)
	case *MemberExpr:
		w.x(n.X)
	case *IndexExpr:
		w.x(n.X)
		w.x(n.Index)
	default:
		return false
	}
	return true
}

// stmt: statements and their parts.
func (w inspector) stmt(node Node) {
	switch n := node.(type) {
	case *BlockStmt:
		w.attrs(n.Attrs)
		w.stmts(n.Stmts)
	case *EmptyStmt, *BranchStmt:
	case *ReturnStmt:
		w.x(n.X)
	case *IfStmt:
		w.attrs(n.Attrs)
		w.x(n.Cond)
		Inspect(n.Then, w)
		if n.Else != nil {
			Inspect(n.Else, w)
		}
	case *SwitchStmt:
		w.attrs(n.Attrs)
		w.x(n.X)
		w.attrs(n.BodyAttrs)
		for _, c := range n.Clauses {
			Inspect(c, w)
		}
	case *CaseClause:
		w.exprs(n.Selectors)
		Inspect(n.Body, w)
	case *LoopStmt:
		w.attrs(n.Attrs)
		w.attrs(n.BodyAttrs)
		w.stmts(n.Body)
		if n.Continuing != nil {
			Inspect(n.Continuing, w)
		}
	case *ContinuingStmt:
		w.attrs(n.Attrs)
		w.stmts(n.Stmts)
		w.x(n.BreakIf)
	case *ForStmt:
		w.attrs(n.Attrs)
		if n.Init != nil {
			Inspect(n.Init, w)
		}
		w.x(n.Cond)
		if n.Update != nil {
			Inspect(n.Update, w)
		}
		Inspect(n.Body, w)
	case *WhileStmt:
		w.attrs(n.Attrs)
		w.x(n.Cond)
		Inspect(n.Body, w)
	case *DeclStmt:
		Inspect(n.Decl, w)
	case *AssignStmt:
		w.x(n.LHS)
		w.x(n.RHS)
	case *IncDecStmt:
		w.x(n.X)
	case *CallStmt:
		Inspect(n.Call, w)
	case *ConstAssertStmt:
		Inspect(n.Assert, w)
	}
}
