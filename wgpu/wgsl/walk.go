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
	attrs := func(as []*Attribute) {
		for _, a := range as {
			Inspect(a, f)
		}
	}
	exprs := func(xs []Expr) {
		for _, x := range xs {
			if x != nil {
				Inspect(x, f)
			}
		}
	}
	stmts := func(ss []Stmt) {
		for _, s := range ss {
			Inspect(s, f)
		}
	}
	expr := func(x Expr) {
		if x != nil {
			Inspect(x, f)
		}
	}
	switch n := node.(type) {
	case *File:
		for _, d := range n.Decls {
			Inspect(d, f)
		}
	case *Attribute:
		exprs(n.Args)
	case *DirectiveDecl:
	case *VarDecl:
		attrs(n.Attrs)
		exprs(n.Template)
		expr(n.Type)
		expr(n.Init)
	case *AliasDecl:
		expr(n.Type)
	case *StructDecl:
		for _, m := range n.Members {
			Inspect(m, f)
		}
	case *Member:
		attrs(n.Attrs)
		expr(n.Type)
	case *FuncDecl:
		attrs(n.Attrs)
		for _, p := range n.Params {
			Inspect(p, f)
		}
		attrs(n.ResultAttrs)
		expr(n.Result)
		if n.Body != nil {
			Inspect(n.Body, f)
		}
	case *Param:
		attrs(n.Attrs)
		expr(n.Type)
	case *ConstAssert:
		expr(n.Cond)
	case *Ident:
		exprs(n.Template)
	case *Literal:
	case *CallExpr:
		Inspect(n.Fn, f)
		exprs(n.Args)
	case *ParenExpr:
		expr(n.X)
	case *UnaryExpr:
		expr(n.X)
	case *BinaryExpr:
		expr(n.X)
		expr(n.Y)
	case *MemberExpr:
		expr(n.X)
	case *IndexExpr:
		expr(n.X)
		expr(n.Index)
	case *BlockStmt:
		attrs(n.Attrs)
		stmts(n.Stmts)
	case *EmptyStmt, *BranchStmt:
	case *ReturnStmt:
		expr(n.X)
	case *IfStmt:
		attrs(n.Attrs)
		expr(n.Cond)
		Inspect(n.Then, f)
		if n.Else != nil {
			Inspect(n.Else, f)
		}
	case *SwitchStmt:
		attrs(n.Attrs)
		expr(n.X)
		attrs(n.BodyAttrs)
		for _, c := range n.Clauses {
			Inspect(c, f)
		}
	case *CaseClause:
		exprs(n.Selectors)
		Inspect(n.Body, f)
	case *LoopStmt:
		attrs(n.Attrs)
		attrs(n.BodyAttrs)
		stmts(n.Body)
		if n.Continuing != nil {
			Inspect(n.Continuing, f)
		}
	case *ContinuingStmt:
		attrs(n.Attrs)
		stmts(n.Stmts)
		expr(n.BreakIf)
	case *ForStmt:
		attrs(n.Attrs)
		if n.Init != nil {
			Inspect(n.Init, f)
		}
		expr(n.Cond)
		if n.Update != nil {
			Inspect(n.Update, f)
		}
		Inspect(n.Body, f)
	case *WhileStmt:
		attrs(n.Attrs)
		expr(n.Cond)
		Inspect(n.Body, f)
	case *DeclStmt:
		Inspect(n.Decl, f)
	case *AssignStmt:
		expr(n.LHS)
		expr(n.RHS)
	case *IncDecStmt:
		expr(n.X)
	case *CallStmt:
		Inspect(n.Call, f)
	case *ConstAssertStmt:
		Inspect(n.Assert, f)
	}
}
