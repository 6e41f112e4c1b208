package wgsl

import "reflect"

// The syntax tree of a WGSL module, as [ParseFile] reads it and [Fprint]
// writes it. It follows the shape of go/ast: a node records the byte offset
// of its first token in the source it was read from (Pos; [Position] turns
// it into a line and column); expressions, statements and declarations are
// interfaces with one struct per form. Types are expressions: a type is an
// [Ident], with a template list where it has one (array<f32, 4>,
// ptr<function, u32>).
//
// The tree keeps what the source wrote: parentheses as [ParenExpr], literal
// text as written, attributes in order, else-if chains as nested [IfStmt]s.
// It drops blankspace, comments, trailing commas, the optional colon after a
// case selector and empty declarations (a stray ';' at module scope).

// Node is any node of the tree.
type Node interface {
	// Pos is the byte offset in the source of the node's first token; a
	// node made by a rewrite has the position of the node it replaced, or
	// -1.
	Pos() int
}

// File is a module: its directives and declarations in source order.
type File struct {
	Decls []Decl
}

// Pos is 0.
func (*File) Pos() int { return 0 }

// Attribute is @Name or @Name(Args...).
type Attribute struct {
	At   int // offset of the '@'
	Name string
	Args []Expr // nil when written without parentheses
	// Parens reports a parenthesized argument list, possibly empty.
	Parens bool
	Rparen int // offset of the ')' closing the arguments, when Parens
}

// Pos is the offset of the '@'.
func (a *Attribute) Pos() int { return a.At }

// Decl is a module-scope directive or declaration: *DirectiveDecl,
// *VarDecl, *AliasDecl, *StructDecl, *FuncDecl or *ConstAssert.
type Decl interface {
	Node
	declNode()
}

// DirectiveDecl is enable a, b; requires a, b; or diagnostic(severity,
// rule);.
type DirectiveDecl struct {
	At      int
	Keyword string // "enable", "requires" or "diagnostic"
	// Names are the enable or requires names; for diagnostic, the
	// severity and the rule name (with a dot when it has two parts).
	Names []string
}

// VarDecl is a var, const, override or let declaration, at module scope or
// in a function body (see [DeclStmt]).
type VarDecl struct {
	Attrs   []*Attribute
	At      int    // offset of the keyword
	Keyword string // "var", "const", "override" or "let"
	// Template is var's template list (address space and access mode);
	// nil when absent.
	Template []Expr
	Name     string
	NamePos  int
	Type     Expr // nil when not written
	Init     Expr // nil when not written
	// End is the offset just past the declaration: past its ';' at
	// module scope or as a statement; past its type or initializer in a
	// for statement's initializer.
	End int
}

// AliasDecl is alias Name = Type;.
type AliasDecl struct {
	At      int
	Name    string
	NamePos int
	Type    Expr
}

// StructDecl is struct Name { members }.
type StructDecl struct {
	At      int
	Name    string
	NamePos int
	Lbrace  int // offset of the '{'
	Members []*Member
}

// Member is one member of a struct: attributes, name and type.
type Member struct {
	Attrs   []*Attribute
	Name    string
	NamePos int
	Type    Expr
}

// Pos is the offset of the member's first attribute or its name.
func (m *Member) Pos() int { return attrsPos(m.Attrs, m.NamePos) }

// FuncDecl is a function declaration.
type FuncDecl struct {
	Attrs       []*Attribute
	At          int // offset of fn
	Name        string
	NamePos     int
	Params      []*Param
	ResultAttrs []*Attribute
	Result      Expr // nil for a function returning nothing
	Body        *BlockStmt
}

// Param is one parameter of a function.
type Param struct {
	Attrs   []*Attribute
	Name    string
	NamePos int
	Type    Expr
}

// Pos is the offset of the parameter's first attribute or its name.
func (p *Param) Pos() int { return attrsPos(p.Attrs, p.NamePos) }

// ConstAssert is const_assert Cond;, a declaration at module scope and a
// statement in a body.
type ConstAssert struct {
	At   int
	Cond Expr
}

func attrsPos(attrs []*Attribute, pos int) int {
	if len(attrs) > 0 {
		return attrs[0].At
	}
	return pos
}

func (d *DirectiveDecl) Pos() int { return d.At }
func (d *VarDecl) Pos() int       { return attrsPos(d.Attrs, d.At) }
func (d *AliasDecl) Pos() int     { return d.At }
func (d *StructDecl) Pos() int    { return d.At }
func (d *FuncDecl) Pos() int      { return attrsPos(d.Attrs, d.At) }
func (d *ConstAssert) Pos() int   { return d.At }

func (*DirectiveDecl) declNode() {}
func (*VarDecl) declNode()       {}
func (*AliasDecl) declNode()     {}
func (*StructDecl) declNode()    {}
func (*FuncDecl) declNode()      {}
func (*ConstAssert) declNode()   {}

// Expr is an expression (or a type): *Ident, *Literal, *CallExpr,
// *ParenExpr, *UnaryExpr, *BinaryExpr, *MemberExpr or *IndexExpr.
type Expr interface {
	Node
	exprNode()
}

// Ident is a name, with its template list when it has one: x,
// vec3<f32>, array<u32, N>.
type Ident struct {
	At       int
	Name     string
	Template []Expr // nil when absent
	Rangle   int    // offset of the '>' closing the template list, when present
}

// Literal is a numeric or boolean literal, its text as written.
type Literal struct {
	At   int
	Kind LiteralKind
	Text string
}

// LiteralKind classifies a [Literal].
type LiteralKind uint8

// The literal kinds.
const (
	LiteralInt LiteralKind = iota + 1
	LiteralFloat
	LiteralBool
)

// CallExpr is a function call, a value constructor or a type conversion:
// Fn(Args...).
type CallExpr struct {
	Fn     *Ident
	Args   []Expr
	Rparen int // offset of the ')'
}

// ParenExpr is (X).
type ParenExpr struct {
	At     int
	X      Expr
	Rparen int // offset of the ')'
}

// UnaryExpr is Op X, for Op one of - ! ~ * &.
type UnaryExpr struct {
	At int
	Op string
	X  Expr
}

// BinaryExpr is X Op Y.
type BinaryExpr struct {
	X     Expr
	Op    string
	OpPos int // offset of the operator
	Y     Expr
}

// MemberExpr is X.Name, a struct member or a vector swizzle.
type MemberExpr struct {
	X       Expr
	Dot     int // offset of the '.'
	Name    string
	NamePos int
}

// IndexExpr is X[Index].
type IndexExpr struct {
	X      Expr
	Lbrack int // offset of the '['
	Index  Expr
	Rbrack int // offset of the ']'
}

func (e *Ident) Pos() int      { return e.At }
func (e *Literal) Pos() int    { return e.At }
func (e *CallExpr) Pos() int   { return e.Fn.At }
func (e *ParenExpr) Pos() int  { return e.At }
func (e *UnaryExpr) Pos() int  { return e.At }
func (e *BinaryExpr) Pos() int { return e.X.Pos() }
func (e *MemberExpr) Pos() int { return e.X.Pos() }
func (e *IndexExpr) Pos() int  { return e.X.Pos() }

// End returns the offset just past the last token of x, an expression
// read by [ParseFile]: source[x.Pos():End(x)] is its text.
func End(x Expr) int {
	switch x := x.(type) {
	case *Ident:
		if x.Template != nil {
			return x.Rangle + 1
		}
		return x.At + len(x.Name)
	case *Literal:
		return x.At + len(x.Text)
	case *CallExpr:
		return x.Rparen + 1
	case *ParenExpr:
		return x.Rparen + 1
	case *UnaryExpr:
		return End(x.X)
	case *BinaryExpr:
		return End(x.Y)
	case *MemberExpr:
		return x.NamePos + len(x.Name)
	case *IndexExpr:
		return x.Rbrack + 1
	}
	return -1
}

func (*Ident) exprNode()      {}
func (*Literal) exprNode()    {}
func (*CallExpr) exprNode()   {}
func (*ParenExpr) exprNode()  {}
func (*UnaryExpr) exprNode()  {}
func (*BinaryExpr) exprNode() {}
func (*MemberExpr) exprNode() {}
func (*IndexExpr) exprNode()  {}

// Stmt is a statement of a function body.
type Stmt interface {
	Node
	stmtNode()
}

// BlockStmt is { Stmts }, with its attributes.
type BlockStmt struct {
	Attrs []*Attribute
	At    int // offset of the '{'
	Stmts []Stmt
}

// EmptyStmt is a lone ';'.
type EmptyStmt struct{ At int }

// ReturnStmt is return X; (X nil for a bare return).
type ReturnStmt struct {
	At int
	X  Expr
}

// IfStmt is if Cond Then else Else, Else nil, an *IfStmt (else if) or a
// *BlockStmt.
type IfStmt struct {
	Attrs []*Attribute
	At    int
	Cond  Expr
	Then  *BlockStmt
	Else  Stmt
}

// SwitchStmt is switch X { Clauses }.
type SwitchStmt struct {
	Attrs     []*Attribute
	At        int
	X         Expr
	BodyAttrs []*Attribute
	Clauses   []*CaseClause
}

// CaseClause is case selectors: body, or default: body. A nil selector
// is the default selector inside a case list (case 1, default: ...).
type CaseClause struct {
	At        int
	Default   bool   // written as default, not case
	Selectors []Expr // for case
	Body      *BlockStmt
}

// Pos is the offset of case or default.
func (c *CaseClause) Pos() int { return c.At }

// LoopStmt is loop { Body continuing { Continuing } }.
type LoopStmt struct {
	Attrs      []*Attribute
	At         int
	BodyAttrs  []*Attribute
	Body       []Stmt
	Continuing *ContinuingStmt // nil when absent
	BodyAt     int             // offset of the '{'
}

// ContinuingStmt is a loop's continuing block, its break if last.
type ContinuingStmt struct {
	At      int
	Attrs   []*Attribute // the block's attributes
	Stmts   []Stmt
	BreakIf Expr // nil when absent
}

// ForStmt is for (Init; Cond; Update) Body; each of the three may be nil.
type ForStmt struct {
	Attrs  []*Attribute
	At     int
	Init   Stmt
	Cond   Expr
	Update Stmt
	Body   *BlockStmt
}

// WhileStmt is while Cond Body.
type WhileStmt struct {
	Attrs []*Attribute
	At    int
	Cond  Expr
	Body  *BlockStmt
}

// BranchStmt is break, continue or discard.
type BranchStmt struct {
	At      int
	Keyword string
}

// DeclStmt is a var, let or const declaration in a body.
type DeclStmt struct{ Decl *VarDecl }

// AssignStmt is LHS Op RHS, for Op = or a compound assignment (+=, ...);
// LHS is the Ident _ for a phony assignment.
type AssignStmt struct {
	LHS Expr
	Op  string
	RHS Expr
}

// IncDecStmt is X++ or X--.
type IncDecStmt struct {
	X  Expr
	Op string // "++" or "--"
}

// CallStmt is a function call as a statement.
type CallStmt struct{ Call *CallExpr }

// ConstAssertStmt is const_assert in a body.
type ConstAssertStmt struct{ Assert *ConstAssert }

func (s *BlockStmt) Pos() int       { return attrsPos(s.Attrs, s.At) }
func (s *EmptyStmt) Pos() int       { return s.At }
func (s *ReturnStmt) Pos() int      { return s.At }
func (s *IfStmt) Pos() int          { return attrsPos(s.Attrs, s.At) }
func (s *SwitchStmt) Pos() int      { return attrsPos(s.Attrs, s.At) }
func (s *LoopStmt) Pos() int        { return attrsPos(s.Attrs, s.At) }
func (s *ContinuingStmt) Pos() int  { return s.At }
func (s *ForStmt) Pos() int         { return attrsPos(s.Attrs, s.At) }
func (s *WhileStmt) Pos() int       { return attrsPos(s.Attrs, s.At) }
func (s *BranchStmt) Pos() int      { return s.At }
func (s *DeclStmt) Pos() int        { return s.Decl.Pos() }
func (s *AssignStmt) Pos() int      { return s.LHS.Pos() }
func (s *IncDecStmt) Pos() int      { return s.X.Pos() }
func (s *CallStmt) Pos() int        { return s.Call.Pos() }
func (s *ConstAssertStmt) Pos() int { return s.Assert.At }

func (*BlockStmt) stmtNode()       {}
func (*EmptyStmt) stmtNode()       {}
func (*ReturnStmt) stmtNode()      {}
func (*IfStmt) stmtNode()          {}
func (*SwitchStmt) stmtNode()      {}
func (*LoopStmt) stmtNode()        {}
func (*ForStmt) stmtNode()         {}
func (*WhileStmt) stmtNode()       {}
func (*BranchStmt) stmtNode()      {}
func (*DeclStmt) stmtNode()        {}
func (*AssignStmt) stmtNode()      {}
func (*IncDecStmt) stmtNode()      {}
func (*CallStmt) stmtNode()        {}
func (*ConstAssertStmt) stmtNode() {}

// Equal reports whether a and b are the same tree, positions aside: what
// [ParseFile] reads from a source and from [Fprint]'s output of its tree.
func Equal(a, b Node) bool {
	return equalValues(reflect.ValueOf(a), reflect.ValueOf(b))
}

func equalValues(a, b reflect.Value) bool {
	if a.Kind() != b.Kind() {
		return false
	}
	switch a.Kind() {
	case reflect.Pointer, reflect.Interface:
		if a.IsNil() || b.IsNil() {
			return a.IsNil() == b.IsNil()
		}
		if a.Kind() == reflect.Interface && a.Elem().Type() != b.Elem().Type() {
			return false
		}
		return equalValues(a.Elem(), b.Elem())
	case reflect.Slice:
		if a.IsNil() != b.IsNil() || a.Len() != b.Len() {
			return false
		}
		for i := range a.Len() {
			if !equalValues(a.Index(i), b.Index(i)) {
				return false
			}
		}
		return true
	case reflect.Struct:
		if a.Type() != b.Type() {
			return false
		}
		t := a.Type()
		for i := range a.NumField() {
			switch t.Field(i).Name {
			case "At", "NamePos", "BodyAt", "Rparen", "End", "Lbrace", "Rangle", "OpPos", "Dot", "Lbrack", "Rbrack":
				continue
			}
			if !equalValues(a.Field(i), b.Field(i)) {
				return false
			}
		}
		return true
	case reflect.String:
		return a.String() == b.String()
	case reflect.Bool:
		return a.Bool() == b.Bool()
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return a.Int() == b.Int()
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return a.Uint() == b.Uint()
	case reflect.Invalid:
		return true
	}
	return false
}
