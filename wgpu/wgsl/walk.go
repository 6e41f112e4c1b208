package wgsl

// Inspect walks the tree under node in source order, calling f on each
// node; when f returns false it skips that node's children. Nil children
// are not visited. As go/ast.Inspect, it is the way a pass reads a tree:
// f may change the fields of the node it is given (replace a child), and
// the walk goes on into the new children.
func Inspect(node Node, f func(Node) bool) {
	walk(visitor{enter: f}, node)
}

// visitor is what walk calls on the nodes of a tree: enter before a node's
// children, which are walked only when it returns true, and then leave,
// when there is one, after them. Inspect's visitor is its function; the
// package's own passes (the scopes of resolve, the identifiers of
// eachIdent) are visitors too, so that the one walk below spells out the
// children of each kind of node. (Two funcs rather than an interface: a
// func that is only called does not escape, so Inspect's callers' closures
// stay on their stacks.)
type visitor struct {
	enter func(Node) bool
	leave func(Node)
}

// walk visits node and, when v enters it, its children in source order. A
// nil node (a nil interface: an absent expression or statement) is no
// node.
func walk(v visitor, node Node) {
	if node == nil || !v.enter(node) {
		return
	}
	w := walker{v}
	if x, ok := operand(node); ok {
		w.node(x)
	} else if !w.decl(node) {
		w.stmt(node) // or a leaf: *DirectiveDecl, *Literal, *EmptyStmt, *BranchStmt
	}
	if v.leave != nil {
		v.leave(node)
	}
}

// walkList walks each node of ns.
func walkList[T Node](v visitor, ns []T) {
	for _, n := range ns {
		walk(v, n)
	}
}

// walker walks the children of one node for walk: decl and stmt each
// visit the children of the kinds of node they name, node, nodes and attrs
// those of single fields, walkList those of lists.
type walker struct{ v visitor }

func (w walker) node(n Node) { walk(w.v, n) }

// nodes walks each of ns.
func (w walker) nodes(ns ...Node) {
	for _, n := range ns {
		walk(w.v, n)
	}
}

// attrs walks attributes as and then each of ns, the children of a node
// that follow its attributes.
func (w walker) attrs(as []*Attribute, ns ...Node) {
	walkList(w.v, as)
	w.nodes(ns...)
}

// operand returns X, the one child of a node that has no other: the
// operand of a ParenExpr, UnaryExpr or MemberExpr, the value of a
// ReturnStmt or IncDecStmt. It reports whether node is such a node.
func operand(node Node) (Expr, bool) {
	switch n := node.(type) {
	case *ParenExpr:
		return n.X, true
	case *UnaryExpr:
		return n.X, true
	case *MemberExpr:
		return n.X, true
	case *ReturnStmt:
		return n.X, true
	case *IncDecStmt:
		return n.X, true
	}
	return nil, false
}

// decl walks the children of the file, a declaration or one of its parts,
// or an expression, and reports whether node was one of them.
func (w walker) decl(node Node) bool {
	switch n := node.(type) {
	case *File:
		walkList(w.v, n.Decls)
	case *Attribute:
		walkList(w.v, n.Args)
	case *VarDecl:
		w.attrs(n.Attrs)
		walkList(w.v, n.Template)
		w.nodes(n.Type, n.Init)
	case *AliasDecl:
		w.node(n.Type)
	case *StructDecl:
		walkList(w.v, n.Members)
	case *Member:
		w.attrs(n.Attrs, n.Type)
	case *FuncDecl:
		w.attrs(n.Attrs)
		walkList(w.v, n.Params)
		w.attrs(n.ResultAttrs, n.Result)
		if n.Body != nil {
			w.node(n.Body)
		}
	case *Param:
		w.attrs(n.Attrs, n.Type)
	case *ConstAssert:
		w.node(n.Cond)
	case *BinaryExpr:
		w.nodes(n.X, n.Y)
	case *IndexExpr:
		w.nodes(n.X, n.Index)
	case *CallExpr:
		w.node(n.Fn)
		walkList(w.v, n.Args)
	case *Ident:
		walkList(w.v, n.Template)
	default:
		return false
	}
	return true
}

// stmt walks the children of a statement or one of its parts.
func (w walker) stmt(node Node) {
	switch n := node.(type) {
	case *BlockStmt:
		w.attrs(n.Attrs)
		walkList(w.v, n.Stmts)
	case *IfStmt:
		w.attrs(n.Attrs, n.Cond, n.Then, n.Else)
	case *SwitchStmt:
		w.attrs(n.Attrs, n.X)
		w.attrs(n.BodyAttrs)
		walkList(w.v, n.Clauses)
	case *CaseClause:
		walkList(w.v, n.Selectors)
		w.node(n.Body)
	case *LoopStmt:
		w.attrs(n.Attrs)
		w.attrs(n.BodyAttrs)
		walkList(w.v, n.Body)
		if n.Continuing != nil {
			w.node(n.Continuing)
		}
	case *ContinuingStmt:
		w.attrs(n.Attrs)
		walkList(w.v, n.Stmts)
		w.node(n.BreakIf)
	case *ForStmt:
		w.attrs(n.Attrs, n.Init, n.Cond, n.Update, n.Body)
	case *WhileStmt:
		w.attrs(n.Attrs, n.Cond, n.Body)
	case *DeclStmt:
		w.node(n.Decl)
	case *CallStmt:
		w.node(n.Call)
	case *AssignStmt:
		w.nodes(n.LHS, n.RHS)
	case *ConstAssertStmt:
		w.node(n.Assert)
	}
}
