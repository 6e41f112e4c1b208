package wgsl

// oldResolution is what [parser.resolve] finds in the fn declarations of a
// module: the module-scope declaration each identifier refers to, once the
// names a function declares itself are scoped out. It is written once by
// resolve and only read afterwards.
type oldResolution struct {
	// ref[j] is the module-scope declaration that token j, a token of a
	// fn declaration, refers to; nil for every other token.
	ref []*decl
	// uses[d] lists the module-scope declarations that fn d refers to, in
	// its attributes, parameter and return types and body, each once, in
	// the order of their first reference. A call is a reference to a fn.
	uses map[*decl][]*decl
}

// resolve walks the tokens of every fn declaration with WGSL's lexical
// scoping and records which module-scope declarations each one refers to.
//
// A formal parameter is in scope in the body. A let, var or const declared
// in a body is in scope from the end of its declaration (the ';') to the
// end of the innermost enclosing {} block; one declared in the
// initializer of a for statement, to the end of that statement's body. A
// name in scope as a local is not a reference, nor is the name being
// declared, an identifier after '.' (a member or swizzle), an attribute
// name, the arguments of @builtin, @interpolate and @diagnostic, or the
// template list of a var (its address space and access mode).
//
// Function bodies are not parsed into statements: the walk is one pass
// over their tokens, which the lexer has balanced, so it takes linear time
// and accepts malformed bodies, leaving them to the shader compiler.
func (p *parser) resolve() *oldResolution {
	res := &oldResolution{ref: make([]*decl, len(p.toks)), uses: map[*decl][]*decl{}}
	w := &oldScopeWalker{p: p, res: res, active: map[string]int{}, lastUser: map[*decl]*decl{}}
	for _, d := range p.order {
		if d.kind == declFn {
			w.fn(d)
		}
	}
	return res
}

// oldScopeWalker walks the tokens of one function at a time. Its state is
// reset between functions.
type oldScopeWalker struct {
	p   *parser
	res *oldResolution
	fd  *decl // the fn being walked

	active   map[string]int    // names in scope as locals: how many declarations of each are visible
	names    []string          // the visible local declarations, innermost last
	frames   []oldScopeFrame   // open scopes, innermost last
	pending  []oldPendingLocal // locals declared but not yet in scope
	depth    int               // open '(' and '[' inside the body
	lastUser map[*decl]*decl
}

// oldScopeFrame is one open scope: a {} block or a for statement.
type oldScopeFrame struct {
	mark      int  // len(names) when the scope opened
	isFor     bool // a for statement, whose body is not open yet or is the next block
	bodyOpen  bool // for: its body block has opened
	closesFor bool // block: the body of the for statement just below it
}

// oldPendingLocal is a declared local whose scope starts at the ';' that
// ends its declaration. Brackets are balanced and a pending local is
// dropped when the frame or brackets it was declared in close, so the
// pending stack is ordered by (frames, depth), innermost last.
type oldPendingLocal struct {
	name   string
	depth  int // the walker's depth at the keyword
	frames int // len(frames) at the keyword
}

// fn walks fn declaration d.
func (w *oldScopeWalker) fn(d *decl) {
	p := w.p
	w.fd = d
	clear(w.active)
	w.names, w.frames, w.pending, w.depth = w.names[:0], w.frames[:0], w.pending[:0], 0
	// Attributes and the name: at module scope.
	name := d.params.a - 2 // the token before '('
	w.moduleScope(d.whole.a, name)
	// Parameters: names at the top level of the list followed by ':'
	// are declared; the rest (types, attributes) is at module scope.
	var params []string
	nest := 0
	for j := d.params.a; j < d.params.b; j++ {
		t := p.toks[j]
		if t.kind == tkPunct {
			switch {
			case t.text == "(" || t.text == "[" || t.tmpl && t.text == "<":
				nest++
			case t.text == ")" || t.text == "]" || t.tmpl && t.text == ">":
				nest--
			}
			continue
		}
		if nest == 0 && t.kind == tkIdent && j+1 < d.params.b && isPunctTok(p.toks[j+1], ":") {
			params = append(params, t.text)
			continue
		}
		j = w.reference(j, d.params.b)
	}
	// The return type, between ')' and '{'.
	w.moduleScope(d.params.b+1, d.body.a-1)
	// The body.
	w.frames = append(w.frames, oldScopeFrame{})
	for _, n := range params {
		w.declare(n)
	}
	w.body(d.body)
}

// moduleScope resolves the tokens of [a, b) where no local is in scope.
func (w *oldScopeWalker) moduleScope(a, b int) {
	for j := a; j < b; j++ {
		if w.p.toks[j].kind == tkIdent {
			j = w.reference(j, b)
		}
	}
}

// body resolves the tokens of a function body.
func (w *oldScopeWalker) body(s span) {
	p := w.p
	for j := s.a; j < s.b; j++ {
		t := p.toks[j]
		if t.kind == tkPunct {
			switch t.text {
			case "(", "[":
				w.depth++
			case ")", "]":
				w.depth--
				// A declaration inside the brackets ends with them.
				for n := len(w.pending); n > 0 && w.pending[n-1].frames == len(w.frames) && w.pending[n-1].depth > w.depth; n-- {
					w.pending = w.pending[:n-1]
				}
			case ";":
				w.activate()
			case "{":
				f := oldScopeFrame{mark: len(w.names)}
				if n := len(w.frames); n > 0 && w.frames[n-1].isFor && !w.frames[n-1].bodyOpen {
					w.frames[n-1].bodyOpen = true
					f.closesFor = true
				}
				w.frames = append(w.frames, f)
			case "}":
				w.closeBlock()
			}
			continue
		}
		if t.kind != tkIdent || j > s.a && isPunctTok(p.toks[j-1], ".") {
			continue
		}
		switch t.text {
		case "let", "var", "const":
			k := j + 1
			if t.text == "var" && k < s.b && p.toks[k].tmpl && p.toks[k].text == "<" {
				k = p.matchingTmpl(k) + 1
			}
			if k < s.b && p.toks[k].kind == tkIdent {
				w.pending = append(w.pending, oldPendingLocal{name: p.toks[k].text, depth: w.depth, frames: len(w.frames)})
				j = k
			}
			continue
		case "for":
			w.frames = append(w.frames, oldScopeFrame{mark: len(w.names), isFor: true})
			continue
		}
		if w.active[t.text] > 0 {
			continue
		}
		j = w.reference(j, s.b)
	}
}

// reference resolves identifier j, which is not a local, and returns the
// index of its last token: past the arguments of an attribute it skips.
func (w *oldScopeWalker) reference(j, end int) int {
	p := w.p
	t := p.toks[j]
	if j > 0 && p.toks[j-1].kind == tkPunct {
		switch p.toks[j-1].text {
		case ".":
			return j
		case "@":
			switch t.text {
			case "builtin", "interpolate", "diagnostic":
				if j+1 < end && isPunctTok(p.toks[j+1], "(") {
					return min(p.matching(j+1), end-1)
				}
			}
			return j
		}
	}
	if t.pos == w.fd.pos {
		return j // the function's own name
	}
	u, ok := p.decls[t.text]
	if !ok {
		return j
	}
	w.res.ref[j] = u
	if w.lastUser[u] != w.fd {
		w.lastUser[u] = w.fd
		w.res.uses[w.fd] = append(w.res.uses[w.fd], u)
	}
	return j
}

func isPunctTok(t token, s string) bool { return t.kind == tkPunct && t.text == s }

// declare brings name into scope in the innermost frame.
func (w *oldScopeWalker) declare(name string) {
	w.active[name]++
	w.names = append(w.names, name)
}

// activate brings into scope the locals whose declaration a ';' at the
// current depth ends: those on top of the pending stack, declared at this
// depth in this frame.
func (w *oldScopeWalker) activate() {
	for n := len(w.pending); n > 0; n-- {
		l := w.pending[n-1]
		if l.depth != w.depth || l.frames != len(w.frames) {
			break
		}
		w.declare(l.name)
		w.pending = w.pending[:n-1]
	}
}

// closeBlock ends the innermost {} block, and the for statement it is the
// body of; a for statement with no body open yet ends with it too.
func (w *oldScopeWalker) closeBlock() {
	for len(w.frames) > 0 && w.frames[len(w.frames)-1].isFor {
		w.pop()
	}
	if len(w.frames) == 0 {
		return
	}
	closesFor := w.frames[len(w.frames)-1].closesFor
	w.pop()
	if closesFor && len(w.frames) > 0 && w.frames[len(w.frames)-1].isFor {
		w.pop()
	}
}

// pop ends the innermost frame: its locals leave scope, and so do the
// declarations pending inside it.
func (w *oldScopeWalker) pop() {
	f := w.frames[len(w.frames)-1]
	w.frames = w.frames[:len(w.frames)-1]
	for _, n := range w.names[f.mark:] {
		w.active[n]--
	}
	w.names = w.names[:f.mark]
	for n := len(w.pending); n > 0 && w.pending[n-1].frames > len(w.frames); n-- {
		w.pending = w.pending[:n-1]
	}
}
