package wgsl

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// ParseFile reads source into a syntax tree: every declaration, function
// body, statement, expression and attribute, with positions (see [File]).
// It checks the syntax only, within lim's nesting, expression and size
// limits (zero fields: [DefaultLimits]); [Analyze] makes the checks of a
// module's meaning. Errors are *[Error]s with the line and column of the
// first token that does not fit the grammar.
//
// A tree written out by [Fprint] and read again by ParseFile is the same
// tree, positions aside.
func ParseFile(source string, lim Limits) (*File, error) {
	lim = lim.withDefaults()
	if len(source) > lim.MaxSourceBytes {
		return nil, &Error{Line: 1, Column: 1, Msg: fmt.Sprintf("source is %d bytes, more than the limit of %d", len(source), lim.MaxSourceBytes), Kind: KindLimit}
	}
	if !utf8.ValidString(source) {
		return nil, errorAt(source, strings.IndexFunc(source, func(r rune) bool { return r == utf8.RuneError }), "source is not valid UTF-8")
	}
	if i := strings.IndexByte(source, 0); i >= 0 {
		return nil, errorAt(source, i, "source contains a NUL byte")
	}
	toks, err := tokenize(source, lim)
	if err != nil {
		return nil, err
	}
	tp := &treeParser{src: source, toks: toks}
	return tp.file()
}

// Position returns the 1-based line and column (in runes) of byte offset
// off of source, as the errors of this package count them.
func Position(source string, off int) (line, col int) {
	e := errorAt(source, off, "")
	return e.Line, e.Column
}

// treeParser is a recursive-descent parser over the lexer's tokens. The
// lexer has bounded nesting and expression length, which bounds the
// recursion here.
type treeParser struct {
	src  string
	toks []token
	i    int
	// maxFuncTokens, when positive, bounds the tokens of one function
	// body (Limits.MaxFunctionTokens; [Parse] sets it, ParseFile does not).
	maxFuncTokens int

	// Slabs of the most frequent nodes: one allocation per chunk rather
	// than per node.
	idents   slab[Ident]
	literals slab[Literal]
	binaries slab[BinaryExpr]
	assigns  slab[AssignStmt]
}

// slab hands out pointers to the elements of chunks of T, allocated a
// chunk at a time. A node keeps its chunk alive, as any pointer into a
// slice does.
type slab[T any] struct{ buf []T }

func (s *slab[T]) new() *T {
	if len(s.buf) == cap(s.buf) {
		s.buf = make([]T, 0, 32)
	}
	s.buf = s.buf[:len(s.buf)+1]
	return &s.buf[len(s.buf)-1]
}

// treeError carries a syntax error out of the parser (by panic, recovered
// in file).
type treeError struct{ err *Error }

func (p *treeParser) tok() token { return p.toks[p.i] }

func (p *treeParser) peek(n int) token {
	if p.i+n < len(p.toks) {
		return p.toks[p.i+n]
	}
	return p.toks[len(p.toks)-1]
}

func (p *treeParser) fail(format string, args ...any) {
	panic(treeError{errorAt(p.src, p.tok().pos, format, args...)})
}

// describe names token t in messages.
func describe(t token) string {
	if t.kind == tkEOF {
		return "end of source"
	}
	return fmt.Sprintf("%q", t.text)
}

func (p *treeParser) failExpected(what string) {
	p.fail("expected %s, found %s", what, describe(p.tok()))
}

// is reports whether the current token is the punctuation or keyword s
// (not a template delimiter).
func (p *treeParser) is(s string) bool {
	t := p.tok()
	return (t.kind == tkPunct || t.kind == tkIdent) && t.text == s && !t.tmpl
}

func (p *treeParser) isTmplOpen() bool {
	t := p.tok()
	return t.kind == tkPunct && t.tmpl && t.text == "<"
}
func (p *treeParser) isTmplClose() bool {
	t := p.tok()
	return t.kind == tkPunct && t.tmpl && t.text == ">"
}

// expect consumes s or fails.
func (p *treeParser) expect(s string) int {
	if !p.is(s) {
		p.failExpected(fmt.Sprintf("%q", s))
	}
	pos := p.tok().pos
	p.i++
	return pos
}

// accept consumes s if it is next.
func (p *treeParser) accept(s string) bool {
	if p.is(s) {
		p.i++
		return true
	}
	return false
}

// ident consumes an identifier that is not a reserved word.
func (p *treeParser) ident(what string) (string, int) {
	t := p.tok()
	if t.kind != tkIdent || keywords[t.text] {
		p.failExpected(what)
	}
	p.i++
	return t.text, t.pos
}

// keywords are the words that cannot name a declaration (WGSL's keywords;
// the reserved words are left to the compiler).
var keywords = map[string]bool{
	"alias": true, "break": true, "case": true, "const": true, "const_assert": true,
	"continue": true, "continuing": true, "default": true, "diagnostic": true,
	"discard": true, "else": true, "enable": true, "false": true, "fn": true,
	"for": true, "if": true, "let": true, "loop": true, "override": true,
	"requires": true, "return": true, "struct": true, "switch": true, "true": true,
	"var": true, "while": true,
}

func (p *treeParser) file() (f *File, err error) {
	defer func() {
		if r := recover(); r != nil {
			te, ok := r.(treeError)
			if !ok {
				panic(r)
			}
			f, err = nil, te.err
		}
	}()
	f = &File{}
	for p.tok().kind != tkEOF {
		if p.accept(";") {
			continue
		}
		f.Decls = append(f.Decls, p.decl())
	}
	return f, nil
}

func (p *treeParser) decl() Decl {
	t := p.tok()
	if t.kind == tkIdent {
		switch t.text {
		case "enable", "requires":
			p.i++
			d := &DirectiveDecl{At: t.pos, Keyword: t.text}
			for {
				name, _ := p.ident("a name")
				d.Names = append(d.Names, name)
				if !p.accept(",") || p.is(";") {
					break
				}
			}
			p.expect(";")
			return d
		case "diagnostic":
			p.i++
			d := &DirectiveDecl{At: t.pos, Keyword: t.text}
			p.expect("(")
			d.Names = p.diagnosticArgs()
			p.expect(")")
			p.expect(";")
			return d
		case "alias":
			p.i++
			d := &AliasDecl{At: t.pos}
			d.Name, d.NamePos = p.ident("the alias's name")
			p.expect("=")
			d.Type = p.typeExpr()
			p.expect(";")
			return d
		case "struct":
			p.i++
			return p.structDecl(t.pos)
		case "const_assert":
			d := p.constAssert()
			p.expect(";")
			return d
		}
	}
	attrs := p.attributes()
	switch {
	case p.is("fn"):
		return p.funcDecl(attrs)
	case p.is("var"), p.is("const"), p.is("override"):
		d := p.varDecl(attrs)
		d.End = p.expect(";") + 1
		return d
	}
	p.failExpected("a declaration")
	return nil
}

// diagnosticArgs reads severity, rule[.name] and an optional trailing comma.
func (p *treeParser) diagnosticArgs() []string {
	sev, _ := p.anyIdent("a severity")
	p.expect(",")
	rule, _ := p.anyIdent("a rule name")
	if p.accept(".") {
		second, _ := p.anyIdent("a rule name")
		rule += "." + second
	}
	p.accept(",")
	return []string{sev, rule}
}

// anyIdent consumes any identifier, keywords included.
func (p *treeParser) anyIdent(what string) (string, int) {
	t := p.tok()
	if t.kind != tkIdent {
		p.failExpected(what)
	}
	p.i++
	return t.text, t.pos
}

func (p *treeParser) attributes() []*Attribute {
	var attrs []*Attribute
	for p.is("@") {
		a := &Attribute{At: p.tok().pos}
		p.i++
		a.Name, _ = p.anyIdent("an attribute name")
		if p.is("(") {
			p.i++
			a.Parens = true
			if a.Name == "diagnostic" {
				for _, s := range p.diagnosticArgs() {
					a.Args = append(a.Args, &Ident{At: -1, Name: s})
				}
			} else {
				a.Args = p.exprList(")")
			}
			a.Rparen = p.expect(")")
		}
		attrs = append(attrs, a)
	}
	return attrs
}

// exprList reads expressions separated by commas, with an optional
// trailing comma, up to (not consuming) the punctuation end.
func (p *treeParser) exprList(end string) []Expr {
	var xs []Expr
	for more := !p.is(end); more; more = p.listNext(end) {
		xs = append(xs, p.expr())
	}
	return xs
}

// listNext reads the comma after an element of a list separated by
// commas, with an optional trailing comma, that ends at (before) the
// punctuation end, and reports whether another element follows. A list is
// read as: for more := !p.is(end); more; more = p.listNext(end) {...}.
func (p *treeParser) listNext(end string) bool {
	return p.accept(",") && !p.is(end)
}

// typedName reads attributes, a name and ": type": a struct member, or a
// formal parameter, which has the same fields. what names the name for an
// error.
func (p *treeParser) typedName(what string) Member {
	m := Member{Attrs: p.attributes()}
	m.Name, m.NamePos = p.ident(what)
	p.expect(":")
	m.Type = p.typeExpr()
	return m
}

func (p *treeParser) structDecl(at int) *StructDecl {
	d := &StructDecl{At: at}
	d.Name, d.NamePos = p.ident("the struct's name")
	d.Lbrace = p.expect("{")
	for more := !p.is("}"); more; more = p.listNext("}") {
		m := p.typedName("a member name")
		d.Members = append(d.Members, &m)
	}
	p.expect("}")
	return d
}

func (p *treeParser) constAssert() *ConstAssert {
	at := p.expect("const_assert")
	return &ConstAssert{At: at, Cond: p.expr()}
}

// varDecl reads var, const, override or let through its initializer.
func (p *treeParser) varDecl(attrs []*Attribute) *VarDecl {
	t := p.tok()
	d := &VarDecl{Attrs: attrs, At: t.pos, Keyword: t.text}
	p.i++
	if d.Keyword == "var" && p.isTmplOpen() {
		d.Template, _ = p.templateList()
	}
	d.Name, d.NamePos = p.ident("a name")
	if p.accept(":") {
		d.Type = p.typeExpr()
	}
	if p.accept("=") {
		d.Init = p.expr()
	}
	if p.i > 0 {
		last := p.toks[p.i-1]
		d.End = last.pos + len(last.text)
	}
	return d
}

func (p *treeParser) funcDecl(attrs []*Attribute) *FuncDecl {
	d := &FuncDecl{Attrs: attrs, At: p.expect("fn")}
	d.Name, d.NamePos = p.ident("the function's name")
	p.expect("(")
	for more := !p.is(")"); more; more = p.listNext(")") {
		prm := Param(p.typedName("a parameter name"))
		d.Params = append(d.Params, &prm)
	}
	p.expect(")")
	if p.accept("->") {
		d.ResultAttrs = p.attributes()
		d.Result = p.typeExpr()
	}
	if p.maxFuncTokens > 0 && p.is("{") {
		// The body's tokens are counted before they are parsed, so a
		// body past the limit is refused whatever it holds. The lexer
		// balanced the braces.
		depth, end := 0, p.i
		for j := p.i; j < len(p.toks); j++ {
			if t := p.toks[j]; t.kind == tkPunct {
				if t.text == "{" {
					depth++
				} else if t.text == "}" {
					if depth--; depth == 0 {
						end = j
						break
					}
				}
			}
		}
		if n := end - p.i - 1; n > p.maxFuncTokens {
			e := errorAt(p.src, p.tok().pos, "the body of fn %s has %d tokens, more than the limit of %d (split it into functions)", d.Name, n, p.maxFuncTokens)
			e.Kind = KindLimit
			panic(treeError{e})
		}
	}
	d.Body = p.block(nil)
	return d
}

// typeExpr reads a type: a name with its template list.
func (p *treeParser) typeExpr() Expr {
	name, at := p.anyIdent("a type")
	id := p.idents.new()
	id.At, id.Name = at, name
	if p.isTmplOpen() {
		id.Template, id.Rangle = p.templateList()
	}
	return id
}

// templateList reads < args > (the lexer marked both delimiters) and
// returns the arguments and the offset of the '>'.
func (p *treeParser) templateList() ([]Expr, int) {
	p.i++ // '<'
	var args []Expr
	for !p.isTmplClose() {
		args = append(args, p.expr())
		if !p.accept(",") {
			break
		}
	}
	if !p.isTmplClose() {
		p.failExpected("'>' closing the template list")
	}
	end := p.tok().pos
	p.i++
	if args == nil {
		args = []Expr{}
	}
	return args, end
}

// block reads { statements } with the attributes already read.
func (p *treeParser) block(attrs []*Attribute) *BlockStmt {
	b := &BlockStmt{Attrs: attrs, At: p.expect("{")}
	for !p.is("}") {
		if p.tok().kind == tkEOF {
			p.failExpected("'}'")
		}
		b.Stmts = append(b.Stmts, p.stmt())
	}
	p.i++
	return b
}

func (p *treeParser) stmt() Stmt {
	t := p.tok()
	if t.kind == tkPunct && t.text == ";" {
		p.i++
		return &EmptyStmt{At: t.pos}
	}
	attrs := p.attributes()
	t = p.tok()
	if t.kind == tkPunct && t.text == "{" {
		return p.block(attrs)
	}
	if t.kind == tkIdent {
		switch t.text {
		case "if":
			return p.ifStmt(attrs)
		case "switch":
			return p.switchStmt(attrs)
		case "loop":
			return p.loopStmt(attrs)
		case "for":
			return p.forStmt(attrs)
		case "while":
			p.i++
			s := &WhileStmt{Attrs: attrs, At: t.pos, Cond: p.expr()}
			s.Body = p.block(p.attributes())
			return s
		}
	}
	if len(attrs) > 0 {
		panic(treeError{errorAt(p.src, attrs[0].At, "attributes apply to a block, if, switch, loop, for or while statement only")})
	}
	if t.kind == tkIdent {
		switch t.text {
		case "return":
			p.i++
			s := &ReturnStmt{At: t.pos}
			if !p.is(";") {
				s.X = p.expr()
			}
			p.expect(";")
			return s
		case "break", "continue", "discard":
			p.i++
			p.expect(";")
			return &BranchStmt{At: t.pos, Keyword: t.text}
		case "const_assert":
			s := &ConstAssertStmt{Assert: p.constAssert()}
			p.expect(";")
			return s
		}
	}
	s := p.simpleStmt()
	semi := p.expect(";")
	if ds, ok := s.(*DeclStmt); ok {
		ds.Decl.End = semi + 1
	}
	return s
}

// simpleStmt reads a declaration, an assignment, an increment or a call,
// without its ';': what a for statement's init and update may hold.
func (p *treeParser) simpleStmt() Stmt {
	if p.is("var") || p.is("let") || p.is("const") {
		return &DeclStmt{Decl: p.varDecl(nil)}
	}
	lhs := p.unary()
	t := p.tok()
	if t.kind == tkPunct && !t.tmpl {
		switch t.text {
		case "=", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", ">>=", "<<=":
			p.i++
			s := p.assigns.new()
			s.LHS, s.Op = lhs, t.text
			s.RHS = p.expr()
			return s
		case "++", "--":
			p.i++
			return &IncDecStmt{X: lhs, Op: t.text}
		}
	}
	if c, ok := lhs.(*CallExpr); ok {
		return &CallStmt{Call: c}
	}
	p.failExpected("an assignment, an increment or a function call")
	return nil
}

func (p *treeParser) ifStmt(attrs []*Attribute) *IfStmt {
	s := &IfStmt{Attrs: attrs, At: p.expect("if")}
	s.Cond = p.expr()
	s.Then = p.block(p.attributes())
	if p.accept("else") {
		if p.is("if") {
			s.Else = p.ifStmt(nil)
		} else {
			s.Else = p.block(p.attributes())
		}
	}
	return s
}

func (p *treeParser) switchStmt(attrs []*Attribute) *SwitchStmt {
	s := &SwitchStmt{Attrs: attrs, At: p.expect("switch")}
	s.X = p.expr()
	s.BodyAttrs = p.attributes()
	p.expect("{")
	for !p.is("}") {
		t := p.tok()
		c := &CaseClause{At: t.pos}
		switch {
		case p.accept("default"):
			c.Default = true
		case p.accept("case"):
			for {
				if p.accept("default") {
					c.Selectors = append(c.Selectors, nil)
				} else {
					c.Selectors = append(c.Selectors, p.expr())
				}
				if !p.accept(",") || p.is(":") || p.is("{") || p.is("@") {
					break
				}
			}
		default:
			p.failExpected("case, default or '}'")
		}
		p.accept(":")
		c.Body = p.block(p.attributes())
		s.Clauses = append(s.Clauses, c)
	}
	p.i++
	return s
}

func (p *treeParser) loopStmt(attrs []*Attribute) *LoopStmt {
	s := &LoopStmt{Attrs: attrs, At: p.expect("loop")}
	s.BodyAttrs = p.attributes()
	s.BodyAt = p.expect("{")
	for !p.is("}") {
		if p.tok().kind == tkEOF {
			p.failExpected("'}'")
		}
		if p.is("continuing") {
			c := &ContinuingStmt{At: p.tok().pos}
			p.i++
			c.Attrs = p.attributes()
			p.expect("{")
			for !p.is("}") {
				if p.tok().kind == tkEOF {
					p.failExpected("'}'")
				}
				if p.is("break") && p.peek(1).kind == tkIdent && p.peek(1).text == "if" {
					p.i += 2
					c.BreakIf = p.expr()
					p.expect(";")
					if !p.is("}") {
						p.failExpected("'}' after break if")
					}
					break
				}
				c.Stmts = append(c.Stmts, p.stmt())
			}
			p.i++
			s.Continuing = c
			if !p.is("}") {
				p.failExpected("'}' after the continuing block")
			}
			break
		}
		s.Body = append(s.Body, p.stmt())
	}
	p.i++
	return s
}

func (p *treeParser) forStmt(attrs []*Attribute) *ForStmt {
	s := &ForStmt{Attrs: attrs, At: p.expect("for")}
	p.expect("(")
	if !p.is(";") {
		s.Init = p.simpleStmt()
	}
	p.expect(";")
	if !p.is(";") {
		s.Cond = p.expr()
	}
	p.expect(";")
	if !p.is(")") {
		s.Update = p.simpleStmt()
		if _, ok := s.Update.(*DeclStmt); ok {
			panic(treeError{errorAt(p.src, s.Update.Pos(), "a for statement's update cannot declare")})
		}
	}
	p.expect(")")
	s.Body = p.block(p.attributes())
	return s
}

// Binary operators by precedence level, lowest first. WGSL forbids mixing
// some of them without parentheses (a && b || c, a & b | c, a < b < c);
// the tree reads them left to right at these levels and leaves the rule to
// the compiler.
var binaryLevels = [][]string{
	{"||"},
	{"&&"},
	{"|"},
	{"^"},
	{"&"},
	{"==", "!="},
	{"<", ">", "<=", ">="},
	{"<<", ">>"},
	{"+", "-"},
	{"*", "/", "%"},
}

// binaryLevel returns the level of op in binaryLevels, or -1.
func binaryLevel(op string) int {
	switch op {
	case "||":
		return 0
	case "&&":
		return 1
	case "|":
		return 2
	case "^":
		return 3
	case "&":
		return 4
	case "==", "!=":
		return 5
	case "<", ">", "<=", ">=":
		return 6
	case "<<", ">>":
		return 7
	case "+", "-":
		return 8
	case "*", "/", "%":
		return 9
	}
	return -1
}

func (p *treeParser) expr() Expr { return p.binary(0) }

// binary reads a binary expression whose operators have at least level
// min, by precedence climbing: operators of one level associate to the
// left, as if each level were a rule of the grammar.
func (p *treeParser) binary(min int) Expr {
	x := p.unary()
	for {
		t := p.tok()
		if t.kind != tkPunct || t.tmpl {
			return x
		}
		l := binaryLevel(t.text)
		if l < min {
			return x
		}
		p.i++
		b := p.binaries.new()
		b.X, b.Op, b.OpPos = x, t.text, t.pos
		b.Y = p.binary(l + 1)
		x = b
	}
}

func (p *treeParser) unary() Expr {
	t := p.tok()
	if t.kind == tkPunct && !t.tmpl {
		switch t.text {
		case "-", "!", "~", "*", "&":
			p.i++
			return &UnaryExpr{At: t.pos, Op: t.text, X: p.unary()}
		}
	}
	return p.postfix(p.primary())
}

func (p *treeParser) primary() Expr {
	t := p.tok()
	switch t.kind {
	case tkInt:
		p.i++
		return p.literal(t, LiteralInt)
	case tkFloat:
		p.i++
		return p.literal(t, LiteralFloat)
	case tkIdent:
		if t.text == "true" || t.text == "false" {
			p.i++
			return p.literal(t, LiteralBool)
		}
		if keywords[t.text] {
			p.failExpected("an expression")
		}
		p.i++
		id := p.idents.new()
		id.At, id.Name = t.pos, t.text
		if p.isTmplOpen() {
			id.Template, id.Rangle = p.templateList()
		}
		if p.is("(") {
			p.i++
			c := &CallExpr{Fn: id, Args: p.exprList(")")}
			c.Rparen = p.expect(")")
			return c
		}
		return id
	case tkPunct:
		if t.text == "(" && !t.tmpl {
			p.i++
			x := &ParenExpr{At: t.pos, X: p.expr()}
			x.Rparen = p.expect(")")
			return x
		}
	}
	p.failExpected("an expression")
	return nil
}

func (p *treeParser) literal(t token, k LiteralKind) *Literal {
	l := p.literals.new()
	l.At, l.Kind, l.Text = t.pos, k, t.text
	return l
}

func (p *treeParser) postfix(x Expr) Expr {
	for {
		switch {
		case p.is("["):
			ix := &IndexExpr{X: x, Lbrack: p.tok().pos}
			p.i++
			ix.Index = p.expr()
			ix.Rbrack = p.expect("]")
			x = ix
		case p.is("."):
			dot := p.tok().pos
			p.i++
			name, at := p.anyIdent("a member name")
			x = &MemberExpr{X: x, Dot: dot, Name: name, NamePos: at}
		default:
			return x
		}
	}
}
