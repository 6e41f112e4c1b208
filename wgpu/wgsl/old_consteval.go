package wgsl

import (
	"math"
	"math/bits"
	"strconv"
	"strings"
)

// evaluator evaluates integer const-expressions over tokens.
type evaluator struct {
	p   *parser
	i   int
	end int
}

// evalSpan evaluates the tokens of s as one integer const-expression. what
// names the expression in messages.
func (p *parser) evalSpan(s span, what string, depth int) (value, error) {
	if s.a >= s.b {
		return value{}, p.errf(p.toks[s.a].pos, "%s: expected an expression", what)
	}
	e := &evaluator{p: p, i: s.a, end: s.b}
	v, err := e.expr(what, depth)
	if err != nil {
		return value{}, err
	}
	if e.i < e.end {
		t := p.toks[e.i]
		return value{}, p.errf(t.pos, "%s: unexpected %s in a const-expression", what, describe(t))
	}
	return v, nil
}

func (e *evaluator) tok() token {
	if e.i < e.end {
		return e.p.toks[e.i]
	}
	return token{kind: tkEOF, pos: e.p.toks[e.end].pos}
}

// expr parses a binary expression by precedence climbing. Operands are
// parsed iteratively, so a long chain does not recurse.
func (e *evaluator) expr(what string, depth int) (value, error) {
	type frame struct {
		v    value
		op   token
		prec int
	}
	var stack []frame
	v, err := e.unary(what, depth)
	if err != nil {
		return value{}, err
	}
	for {
		t := e.tok()
		prec, ok := binaryPrec[t.text]
		if t.kind != tkPunct || !ok {
			if t.kind == tkPunct && isUnsupportedOp(t.text) {
				return value{}, e.p.errf(t.pos, "%s: operator %q is not supported in this const-expression", what, t.text)
			}
			break
		}
		for len(stack) > 0 && stack[len(stack)-1].prec >= prec {
			f := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if v, err = e.p.binary(f.op, f.v, v, what); err != nil {
				return value{}, err
			}
		}
		stack = append(stack, frame{v, t, prec})
		e.i++
		if v, err = e.unary(what, depth); err != nil {
			return value{}, err
		}
	}
	for len(stack) > 0 {
		f := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if v, err = e.p.binary(f.op, f.v, v, what); err != nil {
			return value{}, err
		}
	}
	return v, nil
}

// unary parses prefix operators iteratively, then a primary expression.
func (e *evaluator) unary(what string, depth int) (value, error) {
	var ops []token
	for {
		t := e.tok()
		if t.kind == tkPunct && (t.text == "-" || t.text == "~") {
			ops = append(ops, t)
			e.i++
			continue
		}
		break
	}
	v, err := e.primary(what, depth)
	if err != nil {
		return value{}, err
	}
	for k := len(ops) - 1; k >= 0; k-- {
		if v, err = e.p.unaryOp(ops[k], v, what); err != nil {
			return value{}, err
		}
	}
	return v, nil
}

func (e *evaluator) primary(what string, depth int) (value, error) {
	p := e.p
	t := e.tok()
	switch t.kind {
	case tkInt:
		e.i++
		return p.intLiteral(t, what)
	case tkFloat:
		return value{}, p.errf(t.pos, "%s: %s is not an integer", what, t.text)
	case tkPunct:
		if t.text == "(" {
			close := p.matching(e.i)
			if close > e.end {
				close = e.end
			}
			v, err := p.evalSpan(span{e.i + 1, close}, what, depth)
			if err != nil {
				return value{}, err
			}
			e.i = close + 1
			return v, nil
		}
	case tkIdent:
		e.i++
		if (t.text == "u32" || t.text == "i32") && e.i < e.end && e.tok().kind == tkPunct && e.tok().text == "(" {
			close := p.matching(e.i)
			if close > e.end {
				close = e.end
			}
			args := p.splitArgs(e.i+1, close)
			e.i = close + 1
			if len(args) == 0 {
				return value{k: kindOf(t.text)}, nil
			}
			if len(args) > 1 {
				return value{}, p.errf(t.pos, "%s: %s() takes one argument", what, t.text)
			}
			v, err := p.evalSpan(args[0], what, depth)
			if err != nil {
				return value{}, err
			}
			return p.convert(t, v, kindOf(t.text), what)
		}
		if e.i < e.end && (e.tok().text == "(" || e.tok().tmpl) {
			return value{}, p.errf(t.pos, "%s: %s(...) is not supported in this const-expression", what, t.text)
		}
		return p.constRef(t, what, depth)
	}
	return value{}, p.errf(t.pos, "%s: expected an integer const-expression, found %s", what, describe(t))
}

// constRef evaluates a reference to a module-scope const.
func (p *parser) constRef(t token, what string, depth int) (value, error) {
	d, ok := p.decls[t.text]
	if !ok {
		return value{}, p.errf(t.pos, "%s: %s is not declared", what, t.text)
	}
	switch d.kind {
	case declConst:
	case declOverride:
		return value{}, notConstError{p.errf(t.pos, "%s: %s is an override, not a const", what, t.text)}
	default:
		return value{}, p.errf(t.pos, "%s: %s is not a const (it is a %s)", what, t.text, declKindNames[d.kind])
	}
	switch d.evalState {
	case 1:
		return value{}, p.errf(t.pos, "%s: const %s depends on itself", what, t.text)
	case 2:
		if d.valErr != nil {
			return value{}, p.errf(t.pos, "%s: const %s: %s", what, t.text, errMsg(d.valErr))
		}
		return d.val, nil
	}
	if depth >= p.lim.MaxDeclarationDepth {
		return value{}, p.limitf(t.pos, "%s: consts nest deeper than the limit of %d", what, p.lim.MaxDeclarationDepth)
	}
	d.evalState = 1
	v, err := p.evalSpan(d.init, "const "+d.name, depth+1)
	if err == nil && d.typ.a < d.typ.b {
		tt := p.toks[d.typ.a]
		if d.typ.b != d.typ.a+1 || (tt.text != "u32" && tt.text != "i32") {
			err = p.errf(tt.pos, "const %s: type %s is not an integer scalar", d.name, tt.text)
		} else {
			v, err = p.convertAbstract(tt, v, kindOf(tt.text), "const "+d.name)
		}
	}
	d.evalState, d.val, d.valErr = 2, v, err
	if err != nil {
		if _, ok := err.(notConstError); ok {
			return value{}, notConstError{p.errf(t.pos, "%s: const %s: %s", what, t.text, errMsg(err))}
		}
		return value{}, err
	}
	return v, nil
}

func (p *parser) intLiteral(t token, what string) (value, error) {
	s := t.text
	k := vAbstract
	switch s[len(s)-1] {
	case 'i':
		k, s = vI32, s[:len(s)-1]
	case 'u':
		k, s = vU32, s[:len(s)-1]
	}
	base := 10
	if strings.HasPrefix(s, "0x") || strings.HasPrefix(s, "0X") {
		base, s = 16, s[2:]
	}
	n, err := strconv.ParseUint(s, base, 64)
	if err != nil || n > math.MaxInt64 {
		return value{}, p.errf(t.pos, "%s: literal %s overflows", what, t.text)
	}
	v := value{k: k, v: int64(n)}
	if !fits(v) {
		return value{}, p.errf(t.pos, "%s: literal %s overflows %s", what, t.text, k)
	}
	return v, nil
}

// convert implements the u32(x) and i32(x) value constructors.
func (p *parser) convert(t token, v value, to vkind, what string) (value, error) {
	if v.k == vAbstract {
		return p.convertAbstract(t, v, to, what)
	}
	if to == vU32 {
		return value{k: vU32, v: int64(uint32(v.v))}, nil
	}
	return value{k: vI32, v: int64(int32(uint32(v.v)))}, nil
}

// convertAbstract converts an AbstractInt to a concrete type, failing when it
// does not fit; a concrete value must already have type to.
func (p *parser) convertAbstract(t token, v value, to vkind, what string) (value, error) {
	if v.k != vAbstract {
		if v.k != to {
			return value{}, p.errf(t.pos, "%s: cannot use a %s value as %s", what, v.k, to)
		}
		return v, nil
	}
	w := value{k: to, v: v.v}
	if !fits(w) {
		return value{}, p.errf(t.pos, "%s: %d does not fit in %s", what, v.v, to)
	}
	return w, nil
}

func (p *parser) unaryOp(op token, v value, what string) (value, error) {
	switch op.text {
	case "-":
		switch v.k {
		case vU32:
			return value{}, p.errf(op.pos, "%s: cannot negate a u32", what)
		case vAbstract:
			if v.v == math.MinInt64 {
				return value{}, p.errf(op.pos, "%s: negation overflows", what)
			}
		}
		r := value{k: v.k, v: -v.v}
		if !fits(r) {
			return value{}, p.errf(op.pos, "%s: negation overflows %s", what, v.k)
		}
		return r, nil
	default: // "~"
		switch v.k {
		case vU32:
			return value{k: vU32, v: int64(^uint32(v.v))}, nil
		default:
			return value{k: v.k, v: ^v.v}, nil
		}
	}
}

// binary applies op to a and b, converting an AbstractInt operand to the
// other operand's type, and fails on overflow, division by zero and
// out-of-range shifts as a const-expression must.
func (p *parser) binary(op token, a, b value, what string) (value, error) {
	fail := func(format string, args ...any) (value, error) {
		return value{}, p.errf(op.pos, what+": "+format, args...)
	}
	if op.text == "<<" || op.text == ">>" {
		if b.k == vI32 {
			return fail("shift amount must be a u32")
		}
		if b.k == vAbstract && a.k != vAbstract {
			if b.v < 0 || b.v > math.MaxUint32 {
				return fail("shift amount %d does not fit in u32", b.v)
			}
		}
		width := int64(32)
		if a.k == vAbstract {
			width = 64
		}
		if b.v < 0 || b.v >= width {
			return fail("shift amount %d is not less than %d", b.v, width)
		}
		s := uint(b.v)
		if op.text == ">>" {
			if a.k == vU32 {
				return value{k: vU32, v: int64(uint32(a.v) >> s)}, nil
			}
			return value{k: a.k, v: a.v >> s}, nil
		}
		r := value{k: a.k, v: a.v << s}
		switch a.k {
		case vU32:
			if uint64(a.v)>>(32-s) != 0 {
				return fail("%d << %d overflows u32", a.v, s)
			}
		default:
			if r.v>>s != a.v || !fits(r) {
				return fail("%d << %d overflows %s", a.v, s, a.k)
			}
		}
		return r, nil
	}
	if a.k != b.k {
		var err error
		switch {
		case a.k == vAbstract:
			a, err = p.convertAbstract(op, a, b.k, what)
		case b.k == vAbstract:
			b, err = p.convertAbstract(op, b, a.k, what)
		default:
			return fail("mismatched operand types %s and %s for %q", a.k, b.k, op.text)
		}
		if err != nil {
			return value{}, err
		}
	}
	k := a.k
	var r int64
	switch op.text {
	case "+":
		s, overflow := add64(a.v, b.v)
		if overflow {
			return fail("%d + %d overflows", a.v, b.v)
		}
		r = s
	case "-":
		s, overflow := add64(a.v, -b.v)
		if overflow || b.v == math.MinInt64 {
			return fail("%d - %d overflows", a.v, b.v)
		}
		r = s
	case "*":
		hi, lo := bits.Mul64(uint64(abs64(a.v)), uint64(abs64(b.v)))
		if hi != 0 || lo > math.MaxInt64 || a.v == math.MinInt64 || b.v == math.MinInt64 {
			return fail("%d * %d overflows", a.v, b.v)
		}
		r = a.v * b.v
	case "/", "%":
		if b.v == 0 {
			return fail("division by zero")
		}
		if b.v == -1 && (a.v == math.MinInt64 || k == vI32 && a.v == math.MinInt32) {
			return fail("%d %s -1 overflows", a.v, op.text)
		}
		if op.text == "/" {
			r = a.v / b.v
		} else {
			r = a.v % b.v
		}
	case "&":
		r = a.v & b.v
	case "|":
		r = a.v | b.v
	case "^":
		r = a.v ^ b.v
	}
	v := value{k: k, v: r}
	if !fits(v) {
		return fail("%s %s %s overflows %s", strconv.FormatInt(a.v, 10), op.text, strconv.FormatInt(b.v, 10), k)
	}
	return v, nil
}
