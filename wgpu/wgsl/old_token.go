package wgsl

// The lexer as the token-span parser used it, for the side-by-side
// benchmark of the old Parse. Temporary.

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// oldPunctuators, longest first within each leading character.
var oldPunctuators = []string{
	">>=", "<<=",
	"->", "&&", "||", "==", "!=", ">=", "<=", ">>", "<<", "--", "++",
	"+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=",
	"&", "@", "/", "!", "[", "]", "{", "}", ":", ",", "=", ">", "<", "%",
	"-", ".", "+", "|", "(", ")", ";", "*", "~", "^",
}

// oldPendingTmpl is a '<' that may oldOpen a template list.
type oldPendingTmpl struct {
	tok      int // index of the '<' token
	depth    int // template discovery nesting depth at the '<'
	nest     int // source nesting depth at the '<'
	innerMax int // deepest template list confirmed inside it
}

// oldOpen is an oldOpen bracket: its character and the else-ifs counted at its
// level.
type oldOpen struct {
	ch   byte
	elif int
	pos  int // the bracket's byte offset
}

// oldLexer turns source text into tokens, enforcing the nesting and expression
// limits as it goes.
type oldLexer struct {
	src  string
	lim  Limits
	toks []token

	stack    []oldOpen // oldOpen brackets
	rootElif int       // else-ifs counted at the top level
	elifSum  int       // sum of the elif counts of stack and rootElif
	unary    int       // length of the current run of prefix unary operators
	exprToks int       // tokens since the last ; , { or }

	pending []oldPendingTmpl // candidate template-list openers
	tdepth  int              // template discovery nesting depth
}

func oldIsSpace(r rune) bool {
	switch r {
	case ' ', '\t', '\n', '\v', '\f', '\r', 0x85, 0x200E, 0x200F, 0x2028, 0x2029:
		return true
	}
	return false
}

func oldIsIdentStart(r rune) bool {
	return r == '_' || r < utf8.RuneSelf && ('a' <= r && r <= 'z' || 'A' <= r && r <= 'Z') ||
		r >= utf8.RuneSelf && unicode.IsLetter(r)
}

func oldIsIdentContinue(r rune) bool {
	return oldIsIdentStart(r) || '0' <= r && r <= '9' ||
		r >= utf8.RuneSelf && (unicode.IsDigit(r) || unicode.Is(unicode.Mn, r) || unicode.Is(unicode.Mc, r) || unicode.Is(unicode.Pc, r))
}

func oldIsDigit(c byte) bool    { return '0' <= c && c <= '9' }
func oldIsHexDigit(c byte) bool { return oldIsDigit(c) || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F' }

// oldTokenize splits src into tokens ending with a tkEOF token.
func oldTokenize(src string, lim Limits) ([]token, error) {
	lx := &oldLexer{src: src, lim: lim, toks: make([]token, 0, len(src)/4+1)}
	if err := lx.run(); err != nil {
		return nil, err
	}
	return lx.toks, nil
}

func (lx *oldLexer) errf(off int, format string, args ...any) error {
	return errorAt(lx.src, off, format, args...)
}

// limitf is errf for a source past one of the [Limits] (KindLimit).
func (lx *oldLexer) limitf(off int, format string, args ...any) error {
	e := errorAt(lx.src, off, format, args...)
	e.Kind = KindLimit
	return e
}

// skipTrivia skips blankspace and comments from i and returns the offset of
// the next token.
func (lx *oldLexer) skipTrivia(i int) (int, error) {
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
		if !oldIsSpace(r) {
			return i, nil
		}
		i += n
	}
	return i, nil
}

func (lx *oldLexer) nesting() int { return len(lx.stack) + lx.unary + lx.elifSum }

func (lx *oldLexer) checkNesting(off int) error {
	if n := lx.nesting(); n > lx.lim.MaxNestingDepth {
		return lx.limitf(off, "nesting depth %d exceeds the limit of %d", n, lx.lim.MaxNestingDepth)
	}
	return nil
}

// curElif returns the else-if counter of the innermost level.
func (lx *oldLexer) curElif() *int {
	if len(lx.stack) == 0 {
		return &lx.rootElif
	}
	return &lx.stack[len(lx.stack)-1].elif
}

func (lx *oldLexer) run() error {
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
		case oldIsDigit(c) || c == '.' && i+1 < len(src) && oldIsDigit(src[i+1]):
			tok, i, err = lx.number(i)
			if err != nil {
				return err
			}
		case c >= utf8.RuneSelf || oldIsIdentStart(rune(c)):
			r, n := utf8.DecodeRuneInString(src[i:])
			if !oldIsIdentStart(r) {
				return lx.errf(i, "invalid character %q", r)
			}
			j := i + n
			for j < len(src) {
				r, n := utf8.DecodeRuneInString(src[j:])
				if !oldIsIdentContinue(r) {
					break
				}
				j += n
			}
			tok = token{kind: tkIdent, pos: i, text: src[i:j]}
			i = j
		default:
			p := ""
			for _, cand := range oldPunctuators {
				if strings.HasPrefix(src[i:], cand) {
					p = cand
					break
				}
			}
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
		// A word directly followed by a single '<' may oldOpen a template list.
		if tok.kind == tkIdent {
			j, err := lx.skipTrivia(i)
			if err != nil {
				return err
			}
			if j < len(src) && src[j] == '<' && (j+1 >= len(src) || src[j+1] != '<' && src[j+1] != '=') {
				lx.pending = append(lx.pending, oldPendingTmpl{tok: len(lx.toks), depth: lx.tdepth, nest: lx.nesting()})
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

func (lx *oldLexer) checkExpr(off int) error {
	if lx.exprToks > lx.lim.MaxExpressionTokens {
		return lx.limitf(off, "expression longer than the limit of %d tokens", lx.lim.MaxExpressionTokens)
	}
	return nil
}

// account updates nesting, expression length and template discovery for
// tok, the next token.
func (lx *oldLexer) account(tok *token, off int, expectOperand *bool) error {
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
		lx.stack = append(lx.stack, oldOpen{ch: t[0], pos: off})
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
		want := byte('(')
		switch t {
		case "]":
			want = '['
		case "}":
			want = '{'
		}
		if len(lx.stack) == 0 || lx.stack[len(lx.stack)-1].ch != want {
			// A bracket that an outer one closes is the one left oldOpen;
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
	case ">":
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

func (lx *oldLexer) number(i int) (token, int, error) {
	src := lx.src
	start := i
	digits := func(j int, ok func(byte) bool) int {
		for j < len(src) && ok(src[j]) {
			j++
		}
		return j
	}
	float := false
	if src[i] == '0' && i+1 < len(src) && (src[i+1] == 'x' || src[i+1] == 'X') {
		j := digits(i+2, oldIsHexDigit)
		mant := j - (i + 2)
		if j < len(src) && src[j] == '.' {
			float = true
			k := digits(j+1, oldIsHexDigit)
			mant += k - (j + 1)
			j = k
		}
		if mant == 0 {
			return token{}, 0, lx.errf(start, "malformed hexadecimal literal")
		}
		if j < len(src) && (src[j] == 'p' || src[j] == 'P') {
			float = true
			k := j + 1
			if k < len(src) && (src[k] == '+' || src[k] == '-') {
				k++
			}
			e := digits(k, oldIsDigit)
			if e == k {
				return token{}, 0, lx.errf(start, "malformed hexadecimal float exponent")
			}
			j = e
			if j < len(src) && (src[j] == 'f' || src[j] == 'h') {
				j++
			}
		} else if !float && j < len(src) && (src[j] == 'i' || src[j] == 'u') {
			j++
		}
		return lx.finishNumber(start, j, float)
	}
	j := digits(i, oldIsDigit)
	intDigits := j - i
	if j < len(src) && src[j] == '.' && (intDigits > 0 || j+1 < len(src) && oldIsDigit(src[j+1])) {
		float = true
		j = digits(j+1, oldIsDigit)
	}
	if j < len(src) && (src[j] == 'e' || src[j] == 'E') {
		k := j + 1
		if k < len(src) && (src[k] == '+' || src[k] == '-') {
			k++
		}
		if e := digits(k, oldIsDigit); e > k {
			float = true
			j = e
		} else {
			return token{}, 0, lx.errf(start, "malformed float exponent")
		}
	}
	switch {
	case j < len(src) && (src[j] == 'f' || src[j] == 'h'):
		if !float && intDigits > 1 && src[start] == '0' {
			return token{}, 0, lx.errf(start, "decimal literal with a leading zero")
		}
		float = true
		j++
	case !float && j < len(src) && (src[j] == 'i' || src[j] == 'u'):
		j++
		fallthrough
	case !float:
		if intDigits > 1 && src[start] == '0' {
			return token{}, 0, lx.errf(start, "decimal literal with a leading zero")
		}
	}
	return lx.finishNumber(start, j, float)
}

// finishNumber makes the token src[start:end] and rejects a literal glued to
// a following word character (123abc).
func (lx *oldLexer) finishNumber(start, end int, float bool) (token, int, error) {
	if end < len(lx.src) {
		c := lx.src[end]
		if oldIsDigit(c) || c == '_' || c == '.' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' {
			return token{}, 0, lx.errf(start, "malformed numeric literal %q", lx.src[start:end+1])
		}
	}
	k := tkInt
	if float {
		k = tkFloat
	}
	return token{kind: k, pos: start, text: lx.src[start:end]}, end, nil
}
