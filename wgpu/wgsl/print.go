package wgsl

import (
	"fmt"
	"io"
	"strings"
)

// Fprint writes node (a *File, a Decl, a Stmt or an Expr) to w as WGSL in
// one layout: four-space indentation, one declaration or statement a line,
// a space around binary operators and after commas. Comments are not in
// the tree and are not written. Parentheses are written where the tree has
// a [ParenExpr], and also where a tree made by a rewrite would otherwise
// read back differently (a BinaryExpr operand of lower precedence).
//
// Reading the output with [ParseFile] gives the same tree, positions aside.
func Fprint(w io.Writer, node Node) error {
	pr := &printer{}
	if err := pr.node(node); err != nil {
		return err
	}
	_, err := io.WriteString(w, pr.b.String())
	return err
}

// Sprint is [Fprint] to a string.
func Sprint(node Node) string {
	var b strings.Builder
	if err := Fprint(&b, node); err != nil {
		return ""
	}
	return b.String()
}

// Mark is where [SprintMarks] began writing a node: Out is the byte offset
// in its output.
type Mark struct {
	Out  int
	Node Node
}

// SprintMarks is [Sprint] that also says where each declaration, struct
// member, parameter, statement and expression begins in the output, in
// output order (Out never decreases; a node and the first node inside it
// may share an Out, the outer first). With the nodes' positions it is the
// map from the output back to the source the tree was read from: the last
// mark at or before an offset of the output is the innermost node written
// there.
func SprintMarks(node Node) (string, []Mark) {
	pr := &printer{marks: []Mark{}}
	if err := pr.node(node); err != nil {
		return "", nil
	}
	return pr.b.String(), pr.marks
}

func (pr *printer) node(node Node) error {
	switch n := node.(type) {
	case *File:
		pr.file(n)
	case Decl:
		pr.decl(n)
	case Stmt:
		pr.stmt(n)
	case Expr:
		pr.expr(n)
	default:
		return fmt.Errorf("wgsl: Fprint: cannot print a %T", node)
	}
	return nil
}

type printer struct {
	b      strings.Builder
	indent int
	marks  []Mark // non-nil: record them (SprintMarks)
}

// mark records that n begins at the current offset of the output.
func (pr *printer) mark(n Node) {
	if pr.marks != nil {
		pr.marks = append(pr.marks, Mark{pr.b.Len(), n})
	}
}

func (pr *printer) s(s string) { pr.b.WriteString(s) }

func (pr *printer) line() {
	pr.b.WriteByte('\n')
	for range pr.indent {
		pr.b.WriteString("    ")
	}
}

func (pr *printer) file(f *File) {
	for i, d := range f.Decls {
		if i > 0 {
			pr.s("\n")
			if _, ok := d.(*FuncDecl); ok {
				pr.s("\n")
			} else if _, ok := f.Decls[i-1].(*FuncDecl); ok {
				pr.s("\n")
			}
		}
		pr.decl(d)
	}
	if len(f.Decls) > 0 {
		pr.s("\n")
	}
}

func (pr *printer) attrs(as []*Attribute) {
	for _, a := range as {
		pr.s("@" + a.Name)
		if a.Parens {
			pr.list("(", a.Args, ")")
		}
		pr.s(" ")
	}
}

func (pr *printer) exprs(xs []Expr) {
	for i, x := range xs {
		if i > 0 {
			pr.s(", ")
		}
		pr.expr(x)
	}
}

// list writes open, the expressions xs separated by commas, and close.
func (pr *printer) list(open string, xs []Expr, close string) {
	pr.s(open)
	pr.exprs(xs)
	pr.s(close)
}

// templated writes name and then its template list <xs>, when it has one.
func (pr *printer) templated(name string, xs []Expr) {
	pr.s(name)
	if xs != nil {
		pr.list("<", xs, ">")
	}
}

// opt writes prefix and then x, when there is an x.
func (pr *printer) opt(prefix string, x Expr) {
	if x != nil {
		pr.s(prefix)
		pr.expr(x)
	}
}

// open writes '{' and indents the lines that follow; close ends them with
// '}' on a line of its own.
func (pr *printer) open() {
	pr.s("{")
	pr.indent++
}

func (pr *printer) close() {
	pr.indent--
	pr.line()
	pr.s("}")
}

// head writes keyword (with its space), x and a space: the head of an if,
// switch or while statement, up to its body.
func (pr *printer) head(keyword string, x Expr) {
	pr.s(keyword)
	pr.expr(x)
	pr.s(" ")
}

// lines writes each statement on a line of its own.
func (pr *printer) lines(ss []Stmt) {
	for _, s := range ss {
		pr.line()
		pr.stmt(s)
	}
}

func (pr *printer) decl(d Decl) {
	pr.mark(d)
	switch d := d.(type) {
	case *DirectiveDecl:
		if d.Keyword == "diagnostic" {
			pr.s("diagnostic(" + strings.Join(d.Names, ", ") + ");")
			return
		}
		pr.s(d.Keyword + " " + strings.Join(d.Names, ", ") + ";")
	case *VarDecl:
		pr.varDecl(d)
		pr.s(";")
	case *AliasDecl:
		pr.s("alias " + d.Name + " = ")
		pr.expr(d.Type)
		pr.s(";")
	case *StructDecl:
		pr.s("struct " + d.Name + " ")
		pr.open()
		for _, m := range d.Members {
			pr.line()
			pr.mark(m)
			pr.attrs(m.Attrs)
			pr.s(m.Name + ": ")
			pr.expr(m.Type)
			pr.s(",")
		}
		pr.close()
	case *FuncDecl:
		pr.attrs(d.Attrs)
		pr.s("fn " + d.Name + "(")
		for i, prm := range d.Params {
			if i > 0 {
				pr.s(", ")
			}
			pr.mark(prm)
			pr.attrs(prm.Attrs)
			pr.s(prm.Name + ": ")
			pr.expr(prm.Type)
		}
		pr.s(")")
		if d.Result != nil {
			pr.s(" -> ")
			pr.attrs(d.ResultAttrs)
			pr.expr(d.Result)
		}
		pr.s(" ")
		pr.block(d.Body)
	case *ConstAssert:
		pr.s("const_assert ")
		pr.expr(d.Cond)
		pr.s(";")
	}
}

func (pr *printer) varDecl(d *VarDecl) {
	pr.attrs(d.Attrs)
	pr.templated(d.Keyword, d.Template)
	pr.s(" " + d.Name)
	pr.opt(": ", d.Type)
	pr.opt(" = ", d.Init)
}

func (pr *printer) block(b *BlockStmt) {
	pr.attrs(b.Attrs)
	pr.stmts(b.Stmts)
}

// stmts writes { stmts } from the current position.
func (pr *printer) stmts(ss []Stmt) {
	if len(ss) == 0 {
		pr.s("{}")
		return
	}
	pr.open()
	pr.lines(ss)
	pr.close()
}

func (pr *printer) stmt(s Stmt) {
	pr.mark(s)
	switch s := s.(type) {
	case *BlockStmt:
		pr.block(s)
	case *EmptyStmt:
		pr.s(";")
	case *ReturnStmt:
		pr.s("return")
		pr.opt(" ", s.X)
		pr.s(";")
	case *IfStmt:
		pr.attrs(s.Attrs)
		pr.ifStmt(s)
	case *SwitchStmt:
		pr.attrs(s.Attrs)
		pr.head("switch ", s.X)
		pr.attrs(s.BodyAttrs)
		pr.open()
		for _, c := range s.Clauses {
			pr.line()
			if c.Default {
				pr.s("default")
			} else {
				pr.s("case ")
				for i, sel := range c.Selectors {
					if i > 0 {
						pr.s(", ")
					}
					if sel == nil {
						pr.s("default")
					} else {
						pr.expr(sel)
					}
				}
			}
			pr.s(": ")
			pr.block(c.Body)
		}
		pr.close()
	case *LoopStmt:
		pr.attrs(s.Attrs)
		pr.s("loop ")
		pr.attrs(s.BodyAttrs)
		pr.open()
		pr.lines(s.Body)
		if c := s.Continuing; c != nil {
			pr.line()
			pr.s("continuing ")
			pr.attrs(c.Attrs)
			pr.open()
			pr.lines(c.Stmts)
			if c.BreakIf != nil {
				pr.line()
				pr.s("break if ")
				pr.expr(c.BreakIf)
				pr.s(";")
			}
			pr.close()
		}
		pr.close()
	case *ForStmt:
		pr.attrs(s.Attrs)
		pr.s("for (")
		if s.Init != nil {
			pr.simple(s.Init)
		}
		pr.s(";")
		pr.opt(" ", s.Cond)
		pr.s(";")
		if s.Update != nil {
			pr.s(" ")
			pr.simple(s.Update)
		}
		pr.s(") ")
		pr.block(s.Body)
	case *WhileStmt:
		pr.attrs(s.Attrs)
		pr.head("while ", s.Cond)
		pr.block(s.Body)
	case *BranchStmt:
		pr.s(s.Keyword + ";")
	case *ConstAssertStmt:
		pr.decl(s.Assert)
	default:
		pr.simple(s)
		pr.s(";")
	}
}

func (pr *printer) ifStmt(s *IfStmt) {
	pr.head("if ", s.Cond)
	pr.block(s.Then)
	switch e := s.Else.(type) {
	case *IfStmt:
		pr.s(" else ")
		pr.ifStmt(e)
	case *BlockStmt:
		pr.s(" else ")
		pr.block(e)
	}
}

// simple writes a declaration, assignment, increment or call without ';'.
func (pr *printer) simple(s Stmt) {
	switch s := s.(type) {
	case *DeclStmt:
		pr.mark(s.Decl)
		pr.varDecl(s.Decl)
	case *AssignStmt:
		pr.expr(s.LHS)
		pr.s(" " + s.Op + " ")
		pr.expr(s.RHS)
	case *IncDecStmt:
		pr.expr(s.X)
		pr.s(s.Op)
	case *CallStmt:
		pr.expr(s.Call)
	}
}

func (pr *printer) expr(x Expr) {
	pr.mark(x)
	switch x := x.(type) {
	case *Ident:
		pr.templated(x.Name, x.Template)
	case *Literal:
		pr.s(x.Text)
	case *CallExpr:
		pr.expr(x.Fn)
		pr.list("(", x.Args, ")")
	case *ParenExpr:
		pr.s("(")
		pr.expr(x.X)
		pr.s(")")
	case *UnaryExpr:
		pr.s(x.Op)
		// - -x and & &x must not read back as -- and &&.
		if (x.Op == "-" || x.Op == "&") && firstByte(x.X) == x.Op[0] {
			pr.s(" ")
		}
		pr.operand(x.X, len(binaryLevels))
	case *BinaryExpr:
		l := binaryLevel(x.Op)
		pr.operand(x.X, l)
		pr.s(" " + x.Op + " ")
		pr.operand(x.Y, l+1)
	case *MemberExpr:
		pr.operand(x.X, len(binaryLevels)+1)
		pr.s("." + x.Name)
	case *IndexExpr:
		pr.operand(x.X, len(binaryLevels)+1)
		pr.s("[")
		pr.expr(x.Index)
		pr.s("]")
	}
}

// operand writes x, in parentheses when it binds more loosely than level
// (a BinaryExpr below level, a UnaryExpr under a postfix).
func (pr *printer) operand(x Expr, level int) {
	need := false
	switch x := x.(type) {
	case *BinaryExpr:
		need = binaryLevel(x.Op) < level
	case *UnaryExpr:
		need = level > len(binaryLevels)
	}
	if need {
		pr.s("(")
		pr.expr(x)
		pr.s(")")
		return
	}
	pr.expr(x)
}

// firstByte returns the first byte x prints as.
func firstByte(x Expr) byte {
	for {
		switch e := x.(type) {
		case *Ident:
			return e.Name[0]
		case *Literal:
			return e.Text[0]
		case *CallExpr:
			return e.Fn.Name[0]
		case *ParenExpr:
			return '('
		case *UnaryExpr:
			return e.Op[0]
		case *BinaryExpr:
			x = e.X
		case *MemberExpr:
			x = e.X
		case *IndexExpr:
			x = e.X
		default:
			return 0
		}
	}
}
