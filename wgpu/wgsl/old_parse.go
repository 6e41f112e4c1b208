package wgsl

import "fmt"

// oldDeclKind is the kind of a module-scope declaration.
type oldDeclKind uint8

const (
	declConst oldDeclKind = iota + 1
	declOverride
	declAlias
	declStruct
	declVar
	declFn
)

var declKindNames = [...]string{"", "const", "override", "alias", "struct", "var", "fn"}

// span is a half-open range of token indices.
type span struct{ a, b int }

// attr is one attribute: @name or @name(args...).
type attr struct {
	name string
	pos  int    // byte offset of the '@'
	end  int    // byte offset just past the attribute (its name or its ')')
	args []span // the arguments, split at top-level commas
}

// member is one member of a struct.
type member struct {
	name  string
	pos   int
	attrs []attr
	typ   span
}

// decl is one module-scope declaration. All fields are written by the
// parser; the eval* and layout* fields memoize later passes.
type decl struct {
	kind  oldDeclKind
	name  string
	pos   int // byte offset of the name
	kw    int // token index of the keyword (const, override, var, fn...)
	attrs []attr
	whole span // every token of the declaration

	typ  span // const/override/var: the declared type, if any (a == b when none); alias: the aliased type
	init span // const/override: the initializer (a == b when none)

	space, access string // var: the address space and access mode, if any

	members []member // struct

	params span // fn: the tokens between the parentheses of the parameter list
	body   span // fn: the tokens between the braces of the body

	evalState uint8 // const: 0 unvisited, 1 in progress, 2 done
	val       value // const: the value once evalState is 2
	valErr    error // const: the error once evalState is 2

	layoutState uint8 // struct: 0 unvisited, 1 in progress, 2 done
	layout      *rtype
	layoutErr   error
}

// parser parses module-scope declarations from tokens.
type parser struct {
	src   string
	toks  []token
	i     int
	lim   Limits
	decls map[string]*decl
	order []*decl

	enables map[string]bool
	sawDecl bool
}

func (p *parser) tok() token { return p.toks[p.i] }

func (p *parser) peek(k int) token {
	if p.i+k < len(p.toks) {
		return p.toks[p.i+k]
	}
	return p.toks[len(p.toks)-1]
}

func (p *parser) errf(off int, format string, args ...any) *Error {
	return errorAt(p.src, off, format, args...)
}

// limitf is errf for a source past one of the [Limits] (KindLimit).
func (p *parser) limitf(off int, format string, args ...any) *Error {
	e := errorAt(p.src, off, format, args...)
	e.Kind = KindLimit
	return e
}

func (p *parser) isPunct(s string) bool {
	t := p.tok()
	return t.kind == tkPunct && t.text == s
}

func describe(t token) string {
	if t.kind == tkEOF {
		return "end of source"
	}
	return fmt.Sprintf("%q", t.text)
}

func (p *parser) expect(s string) (token, error) {
	t := p.tok()
	if t.kind != tkPunct || t.text != s {
		return t, p.errf(t.pos, "expected %q, found %s", s, describe(t))
	}
	p.i++
	return t, nil
}

func (p *parser) ident(what string) (token, error) {
	t := p.tok()
	if t.kind != tkIdent {
		return t, p.errf(t.pos, "expected %s, found %s", what, describe(t))
	}
	if reserved[t.text] {
		return t, p.errf(t.pos, "%q is a reserved word and cannot name a %s", t.text, what)
	}
	p.i++
	return t, nil
}

// reserved holds the keywords that cannot be declared as names.
var reserved = map[string]bool{
	"alias": true, "break": true, "case": true, "const": true, "const_assert": true,
	"continue": true, "continuing": true, "default": true, "diagnostic": true,
	"discard": true, "else": true, "enable": true, "false": true, "fn": true,
	"for": true, "if": true, "let": true, "loop": true, "override": true,
	"requires": true, "return": true, "struct": true, "switch": true, "true": true,
	"var": true, "while": true,
}

// declKeyword holds the keywords that start a module-scope declaration.
var declKeyword = map[string]bool{
	"alias": true, "const": true, "const_assert": true, "fn": true, "override": true,
	"struct": true, "var": true, "enable": true, "requires": true,
}

// matching returns the index of the token closing the bracket at index i,
// which the lexer guarantees to exist.
func (p *parser) matching(i int) int {
	depth := 0
	for j := i; j < len(p.toks); j++ {
		t := p.toks[j]
		if t.kind != tkPunct {
			continue
		}
		switch t.text {
		case "(", "[", "{":
			depth++
		case ")", "]", "}":
			depth--
			if depth == 0 {
				return j
			}
		}
	}
	return len(p.toks) - 1
}

// matchingTmpl returns the index of the '>' closing the template list
// opened at index i.
func (p *parser) matchingTmpl(i int) int {
	depth := 0
	for j := i; j < len(p.toks); j++ {
		t := p.toks[j]
		if t.kind != tkPunct || !t.tmpl {
			continue
		}
		if t.text == "<" {
			depth++
		} else if depth--; depth == 0 {
			return j
		}
	}
	return len(p.toks) - 1
}

// splitArgs splits the tokens of [a, b) at commas outside brackets and
// template lists, dropping one trailing comma.
func (p *parser) splitArgs(a, b int) []span {
	var out []span
	start, depth := a, 0
	for j := a; j < b; j++ {
		t := p.toks[j]
		if t.kind != tkPunct {
			continue
		}
		switch {
		case t.text == "(" || t.text == "[" || t.text == "{" || t.tmpl && t.text == "<":
			depth++
		case t.text == ")" || t.text == "]" || t.text == "}" || t.tmpl && t.text == ">":
			depth--
		case t.text == "," && depth == 0:
			out = append(out, span{start, j})
			start = j + 1
		}
	}
	if start < b {
		out = append(out, span{start, b})
	}
	return out
}

// parseModule parses every module-scope declaration.
func (p *parser) parseModule() error {
	for p.tok().kind != tkEOF {
		if err := p.parseGlobal(); err != nil {
			return err
		}
	}
	return nil
}

func (p *parser) parseAttrs() ([]attr, error) {
	var attrs []attr
	for p.isPunct("@") {
		at := p.tok()
		p.i++
		name := p.tok()
		if name.kind != tkIdent {
			return nil, p.errf(name.pos, "expected an attribute name after '@', found %s", describe(name))
		}
		p.i++
		a := attr{name: name.text, pos: at.pos, end: name.pos + len(name.text)}
		if p.isPunct("(") {
			end := p.matching(p.i)
			a.args = p.splitArgs(p.i+1, end)
			a.end = p.toks[end].pos + 1
			p.i = end + 1
		}
		attrs = append(attrs, a)
	}
	return attrs, nil
}

// skipTo advances to the next ';' outside brackets and returns its index.
func (p *parser) skipTo(what string) (int, error) {
	for {
		t := p.tok()
		switch {
		case t.kind == tkEOF:
			return 0, p.errf(t.pos, "expected ';' after %s, found end of source", what)
		case t.kind == tkPunct && (t.text == "(" || t.text == "["):
			p.i = p.matching(p.i) + 1
		case t.kind == tkPunct && (t.text == "{" || t.text == "}"):
			return 0, p.errf(t.pos, "expected ';' after %s, found %q", what, t.text)
		case t.kind == tkPunct && t.text == ";":
			return p.i, nil
		case t.kind == tkIdent && declKeyword[t.text]:
			return 0, p.errf(t.pos, "expected ';' after %s, found %q", what, t.text)
		default:
			p.i++
		}
	}
}

// skipType advances past one type specifier and returns its span.
func (p *parser) skipType() (span, error) {
	start := p.i
	t := p.tok()
	if t.kind != tkIdent {
		return span{}, p.errf(t.pos, "expected a type, found %s", describe(t))
	}
	p.i++
	if p.tok().tmpl && p.isPunct("<") {
		p.i = p.matchingTmpl(p.i) + 1
	}
	return span{start, p.i}, nil
}

func (p *parser) parseGlobal() error {
	t := p.tok()
	if t.kind == tkPunct && t.text == ";" {
		p.i++
		return nil
	}
	if t.kind == tkIdent {
		switch t.text {
		case "enable", "requires", "diagnostic":
			if t.text == "diagnostic" && p.peek(1).kind == tkPunct && p.peek(1).text == "(" {
				if p.sawDecl {
					return p.errf(t.pos, "directive %q after a declaration", t.text)
				}
				p.i++
				p.i = p.matching(p.i) + 1
				_, err := p.expect(";")
				return err
			}
			if t.text != "diagnostic" {
				if p.sawDecl {
					return p.errf(t.pos, "directive %q after a declaration", t.text)
				}
				p.i++
				start := p.i
				end, err := p.skipTo(t.text + " directive")
				if err != nil {
					return err
				}
				for _, s := range p.splitArgs(start, end) {
					if s.b != s.a+1 || p.toks[s.a].kind != tkIdent {
						return p.errf(p.toks[s.a].pos, "malformed %s directive", t.text)
					}
					if t.text == "enable" {
						p.enables[p.toks[s.a].text] = true
					}
				}
				p.i = end + 1
				return nil
			}
		case "const_assert":
			p.sawDecl = true
			p.i++
			end, err := p.skipTo("const_assert")
			if err != nil {
				return err
			}
			p.i = end + 1
			return nil
		}
	}
	p.sawDecl = true
	start := p.i
	attrs, err := p.parseAttrs()
	if err != nil {
		return err
	}
	kw := p.tok()
	if kw.kind != tkIdent {
		return p.errf(kw.pos, "expected a declaration, found %s", describe(kw))
	}
	d := &decl{attrs: attrs, kw: p.i}
	p.i++
	switch kw.text {
	case "const", "override":
		d.kind = declConst
		if kw.text == "override" {
			d.kind = declOverride
		}
		if err := p.declName(d); err != nil {
			return err
		}
		hasInit, err := p.typeAndInit(d, kw.text+" declaration")
		if err != nil {
			return err
		}
		if hasInit {
			if d.init.a == d.init.b {
				return p.errf(p.tok().pos, "expected an initializer, found ';'")
			}
		} else if d.kind == declConst {
			return p.errf(p.tok().pos, "const %s needs an initializer", d.name)
		} else if d.typ.a == d.typ.b {
			return p.errf(p.tok().pos, "override %s needs a type or an initializer", d.name)
		}
		if _, err := p.expect(";"); err != nil {
			return err
		}
	case "alias":
		d.kind = declAlias
		if err := p.declName(d); err != nil {
			return err
		}
		if _, err := p.expect("="); err != nil {
			return err
		}
		if d.typ, err = p.skipType(); err != nil {
			return err
		}
		if _, err := p.expect(";"); err != nil {
			return err
		}
	case "struct":
		d.kind = declStruct
		if err := p.declName(d); err != nil {
			return err
		}
		if err := p.parseMembers(d); err != nil {
			return err
		}
	case "var":
		d.kind = declVar
		if p.tok().tmpl && p.isPunct("<") {
			end := p.matchingTmpl(p.i)
			args := p.splitArgs(p.i+1, end)
			if len(args) == 0 || len(args) > 2 {
				return p.errf(p.tok().pos, "var<...> takes an address space and an optional access mode")
			}
			for k, s := range args {
				if s.b != s.a+1 || p.toks[s.a].kind != tkIdent {
					return p.errf(p.toks[s.a].pos, "malformed var<...> template list")
				}
				if k == 0 {
					d.space = p.toks[s.a].text
				} else {
					d.access = p.toks[s.a].text
				}
			}
			p.i = end + 1
		}
		if err := p.declName(d); err != nil {
			return err
		}
		if _, err := p.typeAndInit(d, "var declaration"); err != nil {
			return err
		}
		if _, err := p.expect(";"); err != nil {
			return err
		}
	case "fn":
		d.kind = declFn
		if err := p.declName(d); err != nil {
			return err
		}
		if err := p.parseFn(d); err != nil {
			return err
		}
	default:
		return p.errf(kw.pos, "expected a declaration, found %q", kw.text)
	}
	if len(attrs) > 0 && d.kind != declVar && d.kind != declFn && d.kind != declOverride {
		return p.errf(attrs[0].pos, "%s %s cannot have attributes", declKindNames[d.kind], d.name)
	}
	d.whole = span{start, p.i}
	if old, ok := p.decls[d.name]; ok {
		line := errorAt(p.src, old.pos, "").Line
		return p.errf(d.pos, "%s redeclared (first declared as a %s on line %d)", d.name, declKindNames[old.kind], line)
	}
	if predeclared(d.name) && d.kind != declFn {
		// Shadowing a predeclared type or function is legal WGSL but
		// would change what the names below mean; refuse it here.
		return p.errf(d.pos, "%s shadows a predeclared name, which this front-end does not support", d.name)
	}
	p.decls[d.name] = d
	p.order = append(p.order, d)
	return nil
}

// typeAndInit reads a declaration's optional ": type" into d.typ and its
// optional "= initializer" (up to the ';', which it leaves) into d.init,
// reporting whether there was an '='.
func (p *parser) typeAndInit(d *decl, what string) (hasInit bool, err error) {
	if p.isPunct(":") {
		p.i++
		if d.typ, err = p.skipType(); err != nil {
			return false, err
		}
	}
	if !p.isPunct("=") {
		return false, nil
	}
	p.i++
	a := p.i
	end, err := p.skipTo(what)
	if err != nil {
		return true, err
	}
	d.init = span{a, end}
	return true, nil
}

func (p *parser) declName(d *decl) error {
	t, err := p.ident(declKindNames[d.kind] + " name")
	if err != nil {
		return err
	}
	d.name, d.pos = t.text, t.pos
	return nil
}

func (p *parser) parseMembers(d *decl) error {
	open, err := p.expect("{")
	if err != nil {
		return err
	}
	seen := map[string]bool{}
	for !p.isPunct("}") {
		attrs, err := p.parseAttrs()
		if err != nil {
			return err
		}
		name, err := p.ident("struct member name")
		if err != nil {
			return err
		}
		if seen[name.text] {
			return p.errf(name.pos, "struct %s: member %s declared twice", d.name, name.text)
		}
		seen[name.text] = true
		if _, err := p.expect(":"); err != nil {
			return err
		}
		typ, err := p.skipType()
		if err != nil {
			return err
		}
		d.members = append(d.members, member{name: name.text, pos: name.pos, attrs: attrs, typ: typ})
		if p.isPunct(",") {
			p.i++
		} else if !p.isPunct("}") {
			return p.errf(p.tok().pos, "expected ',' or '}' in struct %s, found %s", d.name, describe(p.tok()))
		}
	}
	p.i++
	if len(d.members) == 0 {
		return p.errf(open.pos, "struct %s has no members", d.name)
	}
	return nil
}

// parseFn parses a function's header and skips its body, recording the
// spans of its parameter list and body; [parser.resolve] reads them.
func (p *parser) parseFn(d *decl) error {
	if !p.isPunct("(") {
		return p.errf(p.tok().pos, "expected '(' after fn %s, found %s", d.name, describe(p.tok()))
	}
	end := p.matching(p.i)
	d.params = span{p.i + 1, end}
	p.i = end + 1
	if p.isPunct("->") {
		p.i++
		if _, err := p.parseAttrs(); err != nil {
			return err
		}
		if _, err := p.skipType(); err != nil {
			return err
		}
	}
	if !p.isPunct("{") {
		return p.errf(p.tok().pos, "expected '{' for the body of fn %s, found %s", d.name, describe(p.tok()))
	}
	end = p.matching(p.i)
	d.body = span{p.i + 1, end}
	if n := end - p.i - 1; n > p.lim.MaxFunctionTokens {
		return p.limitf(p.tok().pos, "the body of fn %s has %d tokens, more than the limit of %d (split it into functions)", d.name, n, p.lim.MaxFunctionTokens)
	}
	p.i = end + 1
	return nil
}
