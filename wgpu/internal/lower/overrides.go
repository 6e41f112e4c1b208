package lower

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/streamgate/streamgate/wgpu/wgsl"
)

// BindOverrides rewrites, in the tree of the module m (m.File), each
// override
// declaration into a const declaration holding its value: the constant
// for the override's name or @id, else its default. The driver's compiler
// (naga 0.13) has no overrides, and a pipeline is compiled per set of
// values anyway, so a value fixed in the module is what WebGPU's pipeline
// constants mean. The new nodes have the position of the declaration they
// replace, so a later error about them points at the user's override.
// It reports whether anything changed.
//
// Errors name the override or the constant: a constant that no override
// has, a value its override's type cannot hold, and an override with
// neither a value nor a default.
func BindOverrides(m *wgsl.Module, constants map[string]float64) (bool, error) {
	if len(m.Overrides) == 0 {
		if len(constants) > 0 {
			return false, fmt.Errorf("constant %s: the module declares no override", firstKey(constants))
		}
		return false, nil
	}
	used := make(map[string]bool, len(constants))
	for _, o := range m.Overrides {
		d := o.Decl
		if d == nil || d.Keyword != "override" {
			return false, fmt.Errorf("override %s: not an override of the module's tree (bound already?)", o.Name)
		}
		v, ok := constants[o.Name]
		key := o.Name
		used[o.Name] = ok
		if o.HasID {
			id := strconv.FormatUint(uint64(o.ID), 10)
			if iv, idOK := constants[id]; idOK {
				if ok {
					return false, fmt.Errorf("override %s: constants set it twice, by name and as %q", o.Name, id)
				}
				v, key, ok = iv, id, true
				used[id] = true
			}
		}
		if !ok && !o.HasDefault {
			return false, fmt.Errorf("override %s has no default and the kernel's constants give it no value (WithConstants)", o.Name)
		}
		d.Keyword = "const"
		d.Attrs = slices.DeleteFunc(d.Attrs, func(a *wgsl.Attribute) bool { return a.Name == "id" })
		if !ok {
			continue
		}
		at := d.NamePos
		if d.Init != nil {
			at = d.Init.Pos()
		}
		typ := o.Type
		if typ == "" {
			typ = literalType(d.Init)
		}
		lit, err := overrideValue(typ, v, at)
		if err != nil {
			return false, fmt.Errorf("override %s: constant %q: %v", o.Name, key, err)
		}
		if typ == "" {
			// The initializer's type, whatever it is, converts the
			// abstract literal: select keeps the value, not the
			// expression.
			lit = &wgsl.CallExpr{Fn: &wgsl.Ident{At: at, Name: "select"}, Args: []wgsl.Expr{d.Init, lit, &wgsl.Literal{At: at, Kind: wgsl.LiteralBool, Text: "true"}}}
		}
		d.Init = lit
	}
	for k := range constants {
		if !used[k] { // a name set by @id is marked above
			names := make([]string, len(m.Overrides))
			for i, o := range m.Overrides {
				names[i] = o.Name
			}
			return false, fmt.Errorf("constant %q names no override of the module (it has %s)", k, strings.Join(names, ", "))
		}
	}
	return true, nil
}

// firstKey returns the smallest key of m, for a stable message.
func firstKey(m map[string]float64) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return strconv.Quote(keys[0])
}

// literalType is the type of an override declared without one, from its
// initializer: an override's type is concrete, so an abstract integer is
// i32 and an abstract float f32. An initializer that is not a literal
// (negated or not) gives "", and the value is then written as an abstract
// literal that the initializer's type converts.
func literalType(init wgsl.Expr) string {
	for {
		u, ok := init.(*wgsl.UnaryExpr)
		if !ok || u.Op != "-" {
			break
		}
		init = u.X
	}
	l, ok := init.(*wgsl.Literal)
	if !ok {
		return ""
	}
	switch l.Kind {
	case wgsl.LiteralBool:
		return "bool"
	case wgsl.LiteralInt:
		if strings.HasSuffix(l.Text, "u") {
			return "u32"
		}
		return "i32"
	case wgsl.LiteralFloat:
		if strings.HasSuffix(l.Text, "h") {
			return "f16"
		}
		return "f32"
	}
	return ""
}

// overrideValue is v as a WGSL expression of type typ (an abstract literal
// for ""), positioned at at, or says why typ cannot hold it.
func overrideValue(typ string, v float64, at int) (wgsl.Expr, error) {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return nil, fmt.Errorf("%v is not a finite number", v)
	}
	whole := func(lo, hi float64) error {
		if v != math.Trunc(v) {
			return fmt.Errorf("%v is not a whole number, which %s needs", v, typ)
		}
		if v < lo || v > hi {
			return fmt.Errorf("%v is out of %s's range", v, typ)
		}
		return nil
	}
	// number is |v| as a literal of kind, negated when v is negative.
	number := func(text string, kind wgsl.LiteralKind) wgsl.Expr {
		var x wgsl.Expr = &wgsl.Literal{At: at, Kind: kind, Text: strings.TrimPrefix(text, "-")}
		if strings.HasPrefix(text, "-") {
			x = &wgsl.UnaryExpr{At: at, Op: "-", X: x}
		}
		return x
	}
	conv := func(x wgsl.Expr) wgsl.Expr {
		return &wgsl.CallExpr{Fn: &wgsl.Ident{At: at, Name: typ}, Args: []wgsl.Expr{x}}
	}
	switch typ {
	case "bool":
		return &wgsl.Literal{At: at, Kind: wgsl.LiteralBool, Text: strconv.FormatBool(v != 0)}, nil
	case "i32":
		if err := whole(math.MinInt32, math.MaxInt32); err != nil {
			return nil, err
		}
		return conv(number(strconv.FormatInt(int64(v), 10), wgsl.LiteralInt)), nil
	case "u32":
		if err := whole(0, math.MaxUint32); err != nil {
			return nil, err
		}
		return &wgsl.Literal{At: at, Kind: wgsl.LiteralInt, Text: strconv.FormatUint(uint64(v), 10) + "u"}, nil
	case "f32":
		if math.Abs(v) > math.MaxFloat32 {
			return nil, fmt.Errorf("%v is out of f32's range", v)
		}
		return conv(number(floatLiteral(v))), nil
	case "f16":
		if math.Abs(v) > 65504 {
			return nil, fmt.Errorf("%v is out of f16's range", v)
		}
		return conv(number(floatLiteral(v))), nil
	case "":
		return number(floatLiteral(v)), nil
	}
	return nil, fmt.Errorf("type %s cannot be an override's", typ)
}

// floatLiteral writes v as an abstract WGSL literal and its kind: an
// integer when v is whole and small, else a float with a '.' or an
// exponent.
func floatLiteral(v float64) (string, wgsl.LiteralKind) {
	if v == math.Trunc(v) && math.Abs(v) < 1<<53 {
		return strconv.FormatFloat(v, 'f', -1, 64), wgsl.LiteralInt
	}
	s := strconv.FormatFloat(v, 'g', -1, 64)
	if !strings.ContainsAny(s, ".e") {
		s += ".0"
	}
	return s, wgsl.LiteralFloat
}
