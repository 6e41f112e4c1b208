package wgsl

import (
	"math"
	"math/bits"
	"strconv"
	"strings"
)

// vkind is the type of an integer const value.
type vkind uint8

const (
	vAbstract vkind = iota // AbstractInt: a 64-bit signed integer
	vI32
	vU32
)

func (k vkind) String() string {
	switch k {
	case vI32:
		return "i32"
	case vU32:
		return "u32"
	}
	return "AbstractInt"
}

// value is an integer const value.
type value struct {
	k vkind
	v int64
}

// notConstError reports a reference to an override (or another value that
// is fixed only at pipeline creation): the expression is not a
// const-expression.
type notConstError struct{ e *Error }

func (n notConstError) Error() string { return n.e.Error() }

// binaryPrec gives the precedence of the supported binary operators; WGSL
// forbids mixing most of them without parentheses, which naga checks.
var binaryPrec = map[string]int{
	"|": 1, "^": 2, "&": 3,
	"<<": 4, ">>": 4,
	"+": 5, "-": 5,
	"*": 6, "/": 6, "%": 6,
}

func kindOf(name string) vkind {
	if name == "u32" {
		return vU32
	}
	return vI32
}

func errMsg(err error) string {
	switch e := err.(type) {
	case *Error:
		return e.Msg
	case notConstError:
		return e.e.Msg
	}
	return err.Error()
}

func fits(v value) bool {
	switch v.k {
	case vI32:
		return v.v >= math.MinInt32 && v.v <= math.MaxInt32
	case vU32:
		return v.v >= 0 && v.v <= math.MaxUint32
	}
	return true
}

func abs64(x int64) int64 {
	if x < 0 {
		return -x
	}
	return x
}

func add64(a, b int64) (int64, bool) {
	s := a + b
	return s, (a >= 0) == (b >= 0) && (s >= 0) != (a >= 0)
}

// constState is the memo of one module-scope const in [analysis.consts].
type constState struct {
	state uint8 // 1 in progress, 2 done
	val   value // once done
	err   error // once done
}

// eval evaluates x as one integer const-expression. what names the
// expression in messages; depth counts the consts being evaluated.
func (a *analysis) eval(x Expr, what string, depth int) (value, error) {
	switch x := x.(type) {
	case *Literal:
		switch x.Kind {
		case LiteralInt:
			return a.intLiteral(x, what)
		case LiteralFloat:
			return value{}, a.errf(x.At, "%s: %s is not an integer", what, x.Text)
		}
		return value{}, a.errf(x.At, "%s: %s is not declared", what, x.Text)
	case *ParenExpr:
		return a.eval(x.X, what, depth)
	case *UnaryExpr:
		if x.Op != "-" && x.Op != "~" {
			return value{}, a.errf(x.At, "%s: expected an integer const-expression, found %q", what, x.Op)
		}
		v, err := a.eval(x.X, what, depth)
		if err != nil {
			return value{}, err
		}
		return a.unaryOp(x.Op, x.At, v, what)
	case *BinaryExpr:
		if _, ok := binaryPrec[x.Op]; !ok {
			if _, err := a.eval(x.X, what, depth); err != nil {
				return value{}, err
			}
			return value{}, a.errf(x.OpPos, "%s: operator %q is not supported in this const-expression", what, x.Op)
		}
		l, err := a.eval(x.X, what, depth)
		if err != nil {
			return value{}, err
		}
		r, err := a.eval(x.Y, what, depth)
		if err != nil {
			return value{}, err
		}
		return a.binary(x.Op, x.OpPos, l, r, what)
	case *Ident:
		if x.Template != nil {
			return value{}, a.errf(x.At, "%s: %s(...) is not supported in this const-expression", what, x.Name)
		}
		return a.constRef(x, what, depth)
	case *CallExpr:
		fn := x.Fn
		if fn.Template != nil || fn.Name != "u32" && fn.Name != "i32" {
			return value{}, a.errf(fn.At, "%s: %s(...) is not supported in this const-expression", what, fn.Name)
		}
		switch len(x.Args) {
		case 0:
			return value{k: kindOf(fn.Name)}, nil
		case 1:
		default:
			return value{}, a.errf(fn.At, "%s: %s() takes one argument", what, fn.Name)
		}
		v, err := a.eval(x.Args[0], what, depth)
		if err != nil {
			return value{}, err
		}
		return a.convert(fn.At, v, kindOf(fn.Name), what)
	case *MemberExpr:
		if _, err := a.eval(x.X, what, depth); err != nil {
			return value{}, err
		}
		return value{}, a.errf(x.Dot, "%s: unexpected \".\" in a const-expression", what)
	case *IndexExpr:
		if _, err := a.eval(x.X, what, depth); err != nil {
			return value{}, err
		}
		return value{}, a.errf(x.Lbrack, "%s: unexpected \"[\" in a const-expression", what)
	}
	pos := -1
	if x != nil {
		pos = x.Pos()
	}
	return value{}, a.errf(pos, "%s: expected an expression", what)
}

// constRef evaluates a reference to a module-scope const, memoized in
// a.consts.
func (a *analysis) constRef(id *Ident, what string, depth int) (value, error) {
	d, ok := a.decls[id.Name]
	if !ok {
		return value{}, a.errf(id.At, "%s: %s is not declared", what, id.Name)
	}
	vd, _ := d.(*VarDecl)
	switch {
	case vd != nil && vd.Keyword == "const":
	case vd != nil && vd.Keyword == "override":
		return value{}, notConstError{a.errf(id.At, "%s: %s is an override, not a const", what, id.Name)}
	default:
		return value{}, a.errf(id.At, "%s: %s is not a const (it is a %s)", what, id.Name, declKind(d))
	}
	st := a.consts[vd]
	if st != nil {
		if st.state == 1 {
			return value{}, a.errf(id.At, "%s: const %s depends on itself", what, id.Name)
		}
		if st.err != nil {
			return value{}, a.errf(id.At, "%s: const %s: %s", what, id.Name, errMsg(st.err))
		}
		return st.val, nil
	}
	if depth >= a.lim.MaxDeclarationDepth {
		return value{}, a.limitf(id.At, "%s: consts nest deeper than the limit of %d", what, a.lim.MaxDeclarationDepth)
	}
	st = &constState{state: 1}
	a.consts[vd] = st
	v, err := a.eval(vd.Init, "const "+vd.Name, depth+1)
	if err == nil && vd.Type != nil {
		tt, ok := vd.Type.(*Ident)
		if !ok || tt.Template != nil || tt.Name != "u32" && tt.Name != "i32" {
			err = a.errf(vd.Type.Pos(), "const %s: type %s is not an integer scalar", vd.Name, firstText(vd.Type))
		} else {
			v, err = a.convertAbstract(tt.At, v, kindOf(tt.Name), "const "+vd.Name)
		}
	}
	st.state, st.val, st.err = 2, v, err
	if err != nil {
		if _, ok := err.(notConstError); ok {
			return value{}, notConstError{a.errf(id.At, "%s: const %s: %s", what, id.Name, errMsg(err))}
		}
		return value{}, err
	}
	return v, nil
}

// firstText returns the text of the first token of x.
func firstText(x Expr) string {
	switch x := x.(type) {
	case *Ident:
		return x.Name
	case *Literal:
		return x.Text
	case *CallExpr:
		return x.Fn.Name
	case *ParenExpr:
		return "("
	case *UnaryExpr:
		return x.Op
	case *BinaryExpr:
		return firstText(x.X)
	case *MemberExpr:
		return firstText(x.X)
	case *IndexExpr:
		return firstText(x.X)
	}
	return ""
}

func (a *analysis) intLiteral(l *Literal, what string) (value, error) {
	s := l.Text
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
		return value{}, a.errf(l.At, "%s: literal %s overflows", what, l.Text)
	}
	v := value{k: k, v: int64(n)}
	if !fits(v) {
		return value{}, a.errf(l.At, "%s: literal %s overflows %s", what, l.Text, k)
	}
	return v, nil
}

// convert implements the u32(x) and i32(x) value constructors.
func (a *analysis) convert(pos int, v value, to vkind, what string) (value, error) {
	if v.k == vAbstract {
		return a.convertAbstract(pos, v, to, what)
	}
	if to == vU32 {
		return value{k: vU32, v: int64(uint32(v.v))}, nil
	}
	return value{k: vI32, v: int64(int32(uint32(v.v)))}, nil
}

// convertAbstract converts an AbstractInt to a concrete type, failing when it
// does not fit; a concrete value must already have type to.
func (a *analysis) convertAbstract(pos int, v value, to vkind, what string) (value, error) {
	if v.k != vAbstract {
		if v.k != to {
			return value{}, a.errf(pos, "%s: cannot use a %s value as %s", what, v.k, to)
		}
		return v, nil
	}
	w := value{k: to, v: v.v}
	if !fits(w) {
		return value{}, a.errf(pos, "%s: %d does not fit in %s", what, v.v, to)
	}
	return w, nil
}

func (a *analysis) unaryOp(op string, pos int, v value, what string) (value, error) {
	switch op {
	case "-":
		switch v.k {
		case vU32:
			return value{}, a.errf(pos, "%s: cannot negate a u32", what)
		case vAbstract:
			if v.v == math.MinInt64 {
				return value{}, a.errf(pos, "%s: negation overflows", what)
			}
		}
		r := value{k: v.k, v: -v.v}
		if !fits(r) {
			return value{}, a.errf(pos, "%s: negation overflows %s", what, v.k)
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

// binary applies op (at offset pos) to x and y, converting an AbstractInt
// operand to the other operand's type, and fails on overflow, division by
// zero and out-of-range shifts as a const-expression must.
func (a *analysis) binary(op string, pos int, x, y value, what string) (value, error) {
	fail := func(format string, args ...any) (value, error) {
		return value{}, a.errf(pos, what+": "+format, args...)
	}
	if op == "<<" || op == ">>" {
		if y.k == vI32 {
			return fail("shift amount must be a u32")
		}
		if y.k == vAbstract && x.k != vAbstract {
			if y.v < 0 || y.v > math.MaxUint32 {
				return fail("shift amount %d does not fit in u32", y.v)
			}
		}
		width := int64(32)
		if x.k == vAbstract {
			width = 64
		}
		if y.v < 0 || y.v >= width {
			return fail("shift amount %d is not less than %d", y.v, width)
		}
		s := uint(y.v)
		if op == ">>" {
			if x.k == vU32 {
				return value{k: vU32, v: int64(uint32(x.v) >> s)}, nil
			}
			return value{k: x.k, v: x.v >> s}, nil
		}
		r := value{k: x.k, v: x.v << s}
		switch x.k {
		case vU32:
			if uint64(x.v)>>(32-s) != 0 {
				return fail("%d << %d overflows u32", x.v, s)
			}
		default:
			if r.v>>s != x.v || !fits(r) {
				return fail("%d << %d overflows %s", x.v, s, x.k)
			}
		}
		return r, nil
	}
	if x.k != y.k {
		var err error
		switch {
		case x.k == vAbstract:
			x, err = a.convertAbstract(pos, x, y.k, what)
		case y.k == vAbstract:
			y, err = a.convertAbstract(pos, y, x.k, what)
		default:
			return fail("mismatched operand types %s and %s for %q", x.k, y.k, op)
		}
		if err != nil {
			return value{}, err
		}
	}
	k := x.k
	var r int64
	switch op {
	case "+":
		s, overflow := add64(x.v, y.v)
		if overflow {
			return fail("%d + %d overflows", x.v, y.v)
		}
		r = s
	case "-":
		s, overflow := add64(x.v, -y.v)
		if overflow || y.v == math.MinInt64 {
			return fail("%d - %d overflows", x.v, y.v)
		}
		r = s
	case "*":
		hi, lo := bits.Mul64(uint64(abs64(x.v)), uint64(abs64(y.v)))
		if hi != 0 || lo > math.MaxInt64 || x.v == math.MinInt64 || y.v == math.MinInt64 {
			return fail("%d * %d overflows", x.v, y.v)
		}
		r = x.v * y.v
	case "/", "%":
		if y.v == 0 {
			return fail("division by zero")
		}
		if y.v == -1 && (x.v == math.MinInt64 || k == vI32 && x.v == math.MinInt32) {
			return fail("%d %s -1 overflows", x.v, op)
		}
		if op == "/" {
			r = x.v / y.v
		} else {
			r = x.v % y.v
		}
	case "&":
		r = x.v & y.v
	case "|":
		r = x.v | y.v
	case "^":
		r = x.v ^ y.v
	}
	v := value{k: k, v: r}
	if !fits(v) {
		return fail("%s %s %s overflows %s", strconv.FormatInt(x.v, 10), op, strconv.FormatInt(y.v, 10), k)
	}
	return v, nil
}
