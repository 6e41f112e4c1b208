package wgsl

import (
	"unicode"
	"unicode/utf8"

	"github.com/streamgate/streamgate/internal/low/testhook"
)

// tokenKind classifies a token.
type tokenKind uint8

const (
	tkEOF tokenKind = iota
	tkIdent
	tkInt
	tkFloat
	tkPunct
)

// token is one token of the source. Template-list delimiters are the
// punctuation "<" and ">" with tmpl set, as the specification's template
// list discovery finds them.
type token struct {
	kind tokenKind
	tmpl bool   // a '<' that opens or a '>' that closes a template list
	pos  int    // byte offset in the source
	text string // the token's text, a substring of the source
}

// punctLen returns the length of the punctuator that s starts with, the
// longest one that matches, or 0.
func punctLen(s string) int {
	at := func(k int) byte {
		if k < len(s) {
			return s[k]
		}
		return 0
	}
	switch c := s[0]; c {
	case '@', '[', ']', '{', '}', ':', ',', '.', '(', ')', ';', '~':
		return 1
	case '>', '<': // >>= >> >= > and <<= << <= <
		if at(1) == c {
			if at(2) == '=' {
				return 3
			}
			return 2
		}
		if at(1) == '=' {
			return 2
		}
		return 1
	case '-': // -> -- -= -
		if n := at(1); n == '>' || n == '-' || n == '=' {
			return 2
		}
		return 1
	case '&', '|', '+': // && &= &, || |= |, ++ += +
		if n := at(1); n == c || n == '=' {
			return 2
		}
		return 1
	case '=', '!', '*', '/', '%', '^': // == =, != !, *= *, ...
		if at(1) == '=' {
			return 2
		}
		return 1
	}
	return 0
}

// pendingTmpl is a '<' that may open a template list.
type pendingTmpl struct {
	tok      int // index of the '<' token
	depth    int // template discovery nesting depth at the '<'
	nest     int // source nesting depth at the '<'
	innerMax int // deepest template list confirmed inside it
}

// open is an open bracket: its character and the else-ifs counted at its
// level.
type open struct {
	ch   byte
	elif int
	pos  int // the bracket's byte offset
}

// lexer turns source text into tokens, enforcing the nesting and expression
// limits as it goes.
type lexer struct {
	src  string
	lim  Limits
	toks []token

	stack    []open // open brackets
	rootElif int    // else-ifs counted at the top level
	elifSum  int    // sum of the elif counts of stack and rootElif
	unary    int    // length of the current run of prefix unary operators
	exprToks int    // tokens since the last ; , { or }

	pending []pendingTmpl // candidate template-list openers
	tdepth  int           // template discovery nesting depth
}

func isSpace(r rune) bool {
	switch r {
	case ' ', '\t', '\n', '\v', '\f', '\r', 0x85, 0x200E, 0x200F, 0x2028, 0x2029:
		return true
	}
	return false
}

func isIdentStart(r rune) bool {
	return r == '_' || r < utf8.RuneSelf && ('a' <= r && r <= 'z' || 'A' <= r && r <= 'Z') ||
		r >= utf8.RuneSelf && unicode.IsLetter(r)
}

func isIdentContinue(r rune) bool {
	return isIdentStart(r) || '0' <= r && r <= '9' ||
		r >= utf8.RuneSelf && (unicode.IsDigit(r) || unicode.Is(unicode.Mn, r) || unicode.Is(unicode.Mc, r) || unicode.Is(unicode.Pc, r))
}

func isDigit(c byte) bool    { return '0' <= c && c <= '9' }
func isHexDigit(c byte) bool { return isDigit(c) || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F' }

// tokenize splits src into tokens ending with a tkEOF token.
func tokenize(src string, lim Limits) ([]token, error) {
	if h := testhook.WGSLTokenize.Load(); h != nil {
		(*h)(src)
	}
	// Dense code has a token every three bytes or so; MaxModuleTokens
	// bounds the slice either way.
	lx := &lexer{src: src, lim: lim, toks: make([]token, 0, min(len(src)/3, lim.MaxModuleTokens)+2)}
	if err := lx.run(); err != nil {
		return nil, err
	}
	return lx.toks, nil
}

func (lx *lexer) errf(off int, format string, args ...any) error {
	return errorAt(lx.src, off, format, args...)
}

// limitf is errf for a source past one of the [Limits] (KindLimit).
func (lx *lexer) limitf(off int, format string, args ...any) error {
	e := errorAt(lx.src, off, format, args...)
	e.Kind = KindLimit
	return e
}

// skipTrivia skips blankspace and comments from i and returns the offset of
// the next token.
func (lx *lexer) skipTrivia(i int) (int, error) {
	src := lx.src
	for i < len(src) {
		c := src[i]
		if c < utf8.RuneSelf {
			if c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r' {
				i++
				continue
			}
			if c == '/' && i+1 < len(src) && src[i+1] == '/' {
				j := i + 2
				for j < len(src) && src[j] != '\n' && src[j] != '\r' && src[j] != '\v' && src[j] != '\f' {
					if r, n := utf8.DecodeRuneInString(src[j:]); r == 0x85 || r == 0x2028 || r == 0x2029 {
						break
					} else {
						j += n
					}
				}
				i = j
				continue
			}
			if c == '/' && i+1 < len(src) && src[i+1] == '*' {
				start := i
				depth := 0
				for {
					if i+1 >= len(src) {
						return 0, lx.errf(start, "unterminated block comment")
					}
					if src[i] == '/' && src[i+1] == '*' {
						depth++
						i += 2
					} else if src[i] == '*' && src[i+1] == '/' {
						depth--
						i += 2
						if depth == 0 {
							break
						}
					} else {
						i++
					}
				}
				continue
			}
			return i, nil
		}
		r, n := utf8.DecodeRuneInString(src[i:])
		if !isSpace(r) {
			return i, nil
		}
		i += n
	}
	return i, nil
}

func (lx *lexer) nesting() int { return len(lx.stack) + lx.unary + lx.elifSum }

func (lx *lexer) checkNesting(off int) error {
	if n := lx.nesting(); n > lx.lim.MaxNestingDepth {
		return lx.limitf(off, "nesting depth %d exceeds the limit of %d", n, lx.lim.MaxNestingDepth)
	}
	return nil
}

// curElif returns the else-if counter of the innermost level.
func (lx *lexer) curElif() *int {
	if len(lx.stack) == 0 {
		return &lx.rootElif
	}
	return &lx.stack[len(lx.stack)-1].elif
}

func (lx *lexer) run() error {
	src := lx.src
	i, err := lx.skipTrivia(0)
	if err != nil {
		return err
	}
	if i == len(src) {
		return lx.errf(i, "empty source")
	}
	expectOperand := true
	for {
		i, err = lx.skipTrivia(i)
		if err != nil {
			return err
		}
		if i >= len(src) {
			break
		}
		start := i
		c := src[i]
		var tok token
		switch {
		case isDigit(c) || c == '.' && i+1 < len(src) && isDigit(src[i+1]):
			tok, i, err = lx.number(i)
			if err != nil {
				return err
			}
		case c >= utf8.RuneSelf || isIdentStart(rune(c)):
			r, n := utf8.DecodeRuneInString(src[i:])
			if !isIdentStart(r) {
				return lx.errf(i, "invalid character %q", r)
			}
			j := i + n
			for j < len(src) {
				r, n := utf8.DecodeRuneInString(src[j:])
				if !isIdentContinue(r) {
					break
				}
				j += n
			}
			tok = token{kind: tkIdent, pos: i, text: src[i:j]}
			i = j
		default:
			p := src[i : i+punctLen(src[i:])]
			if p == "" {
				return lx.errf(i, "invalid character %q", rune(c))
			}
			// Template list discovery: a '>' closes the innermost
			// candidate at the same depth, even inside '>>', '>=', '>>='.
			if p[0] == '>' && len(lx.pending) > 0 && lx.pending[len(lx.pending)-1].depth == lx.tdepth {
				p = ">"
			}
			tok = token{kind: tkPunct, pos: i, text: p}
			i += len(p)
		}
		if err := lx.account(&tok, start, &expectOperand); err != nil {
			return err
		}
		lx.toks = append(lx.toks, tok)
		if len(lx.toks) > lx.lim.MaxModuleTokens {
			return lx.limitf(tok.pos, "the module has more than %d tokens, the limit (split it into modules)", lx.lim.MaxModuleTokens)
		}
		// A word directly followed by a single '<' may open a template list.
		if tok.kind == tkIdent {
			j, err := lx.skipTrivia(i)
			if err != nil {
				return err
			}
			if j < len(src) && src[j] == '<' && (j+1 >= len(src) || src[j+1] != '<' && src[j+1] != '=') {
				lx.pending = append(lx.pending, pendingTmpl{tok: len(lx.toks), depth: lx.tdepth, nest: lx.nesting()})
				lt := token{kind: tkPunct, pos: j, text: "<"}
				expectOperand = true
				lx.exprToks++
				if err := lx.checkExpr(j); err != nil {
					return err
				}
				lx.toks = append(lx.toks, lt)
				i = j + 1
			}
		}
	}
	if len(lx.stack) > 0 {
		// Report the innermost unclosed bracket, where it opens.
		o := lx.stack[len(lx.stack)-1]
		return lx.errf(o.pos, "unclosed %q", string(o.ch))
	}
	lx.toks = append(lx.toks, token{kind: tkEOF, pos: len(src)})
	return nil
}

func (lx *lexer) checkExpr(off int) error {
	if lx.exprToks > lx.lim.MaxExpressionTokens {
		return lx.limitf(off, "expression longer than the limit of %d tokens", lx.lim.MaxExpressionTokens)
	}
	return nil
}

// account updates nesting, expression length and template discovery for
// tok, the next token.
func (lx *lexer) account(tok *token, off int, expectOperand *bool) error {
	prevCloseBrace := len(lx.toks) > 0 && lx.toks[len(lx.toks)-1].kind == tkPunct && lx.toks[len(lx.toks)-1].text == "}"
	// else-if chains: "} else if" adds one level; anything else after a
	// '}' ends the chain of that level.
	if prevCloseBrace && !(tok.kind == tkIdent && tok.text == "else") {
		e := lx.curElif()
		lx.elifSum -= *e
		*e = 0
	}
	if tok.kind == tkIdent && tok.text == "if" && len(lx.toks) > 0 {
		if p := lx.toks[len(lx.toks)-1]; p.kind == tkIdent && p.text == "else" {
			*lx.curElif()++
			lx.elifSum++
			if err := lx.checkNesting(off); err != nil {
				return err
			}
		}
	}
	lx.exprToks++
	if tok.kind != tkPunct {
		lx.unary = 0
		*expectOperand = false
		return lx.checkExpr(off)
	}
	t := tok.text
	if *expectOperand {
		switch t {
		case "-", "!", "~", "*", "&":
			lx.unary++
		case "--", "&&":
			lx.unary += 2
		default:
			lx.unary = 0
		}
	} else {
		lx.unary = 0
	}
	if lx.unary > 0 {
		if err := lx.checkNesting(off); err != nil {
			return err
		}
	}
	*expectOperand = true
	switch t {
	case "(", "[", "{":
		lx.stack = append(lx.stack, open{ch: t[0], pos: off})
		if err := lx.checkNesting(off); err != nil {
			return err
		}
		if t == "{" {
			lx.exprToks = 0
			lx.tdepth = 0
			lx.pending = lx.pending[:0]
		} else {
			lx.tdepth++
		}
	case ")", "]", "}":
		if err := lx.closeBracket(t, off, expectOperand); err != nil {
			return err
		}
	case ">":
		if err := lx.closeTemplate(tok, expectOperand); err != nil {
			return err
		}
	case ";", ",":
		lx.exprToks = 0
		if t == ";" {
			lx.tdepth = 0
			lx.pending = lx.pending[:0]
		}
	case ":", "=", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", ">>=", "<<=":
		lx.tdepth = 0
		lx.pending = lx.pending[:0]
	case "&&", "||":
		for len(lx.pending) > 0 && lx.pending[len(lx.pending)-1].depth >= lx.tdepth {
			lx.pending = lx.pending[:len(lx.pending)-1]
		}
	}
	return lx.checkExpr(off)
}

// closeBracket accounts for a closing bracket t at off: the one it closes
// leaves the stack, or the error names the bracket left open or the closer
// without an opener.
func (lx *lexer) closeBracket(t string, off int, expectOperand *bool) error {
	want := byte('(')
	switch t {
	case "]":
		want = '['
	case "}":
		want = '{'
	}
	if len(lx.stack) == 0 || lx.stack[len(lx.stack)-1].ch != want {
		// A bracket that an outer one closes is the one left open;
		// otherwise the closer has no opener.
		for k := len(lx.stack) - 2; k >= 0; k-- {
			if lx.stack[k].ch == want {
				o := lx.stack[len(lx.stack)-1]
				return lx.errf(o.pos, "unclosed %q", string(o.ch))
			}
		}
		return lx.errf(off, "unexpected %q", t)
	}
	lx.elifSum -= lx.stack[len(lx.stack)-1].elif
	lx.stack = lx.stack[:len(lx.stack)-1]
	if t == "}" {
		lx.exprToks = 0
		lx.tdepth = 0
		lx.pending = lx.pending[:0]
	} else {
		*expectOperand = false
		for len(lx.pending) > 0 && lx.pending[len(lx.pending)-1].depth >= lx.tdepth {
			lx.pending = lx.pending[:len(lx.pending)-1]
		}
		if lx.tdepth > 0 {
			lx.tdepth--
		}
	}
	return nil
}

// closeTemplate accounts for a '>' that closes a pending template list:
// both ends are marked as template brackets and its depth checked.
func (lx *lexer) closeTemplate(tok *token, expectOperand *bool) error {
	if n := len(lx.pending); n > 0 && lx.pending[n-1].depth == lx.tdepth {
		p := lx.pending[n-1]
		lx.pending = lx.pending[:n-1]
		tok.tmpl = true
		lx.toks[p.tok].tmpl = true
		d := p.innerMax + 1
		if n > 1 && d > lx.pending[n-2].innerMax {
			lx.pending[n-2].innerMax = d
		}
		if p.nest+d > lx.lim.MaxNestingDepth {
			return lx.limitf(lx.toks[p.tok].pos, "nesting depth %d exceeds the limit of %d", p.nest+d, lx.lim.MaxNestingDepth)
		}
		*expectOperand = false
	}
	return nil
}
