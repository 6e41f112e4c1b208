package wgpu

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/streamgate/streamgate/wgpu/wgsl"
)

// bindOverrides rewrites the override declarations of source, which parsed
// as m, into const declarations holding their values: the kernel's
// constant for the override's name or @id, else its default. The driver's
// compiler (naga 0.13) has no overrides, and a pipeline is compiled per set
// of values anyway, so a value fixed in the source is what WebGPU's
// pipeline constants mean.
//
// The rewrite keeps every line where it was (an @id attribute becomes
// blanks, a multi-line initializer keeps its newlines), so a later
// diagnostic's line is the user's; only columns after a rewritten
// initializer on its own line move. It reports whether anything changed.
//
// Errors name the override or the constant: a constant that no override
// has, a value its override's type cannot hold, and an override with
// neither a value nor a default.
func bindOverrides(source string, m *wgsl.Module, constants map[string]float64) (string, bool, error) {
	if len(m.Overrides) == 0 {
		if len(constants) > 0 {
			return "", false, fmt.Errorf("constant %s: the module declares no override", firstKey(constants))
		}
		return source, false, nil
	}
	used := make(map[string]bool, len(constants))
	type edit struct {
		at, end int
		text    string
	}
	var edits []edit
	blank := func(s wgsl.Span) {
		if s.End > s.Start {
			edits = append(edits, edit{s.Start, s.End, blankLike(source[s.Start:s.End])})
		}
	}
	for _, o := range m.Overrides {
		v, ok := constants[o.Name]
		key := o.Name
		used[o.Name] = ok
		if o.HasID {
			id := strconv.FormatUint(uint64(o.ID), 10)
			if iv, idOK := constants[id]; idOK {
				if ok {
					return "", false, fmt.Errorf("override %s: constants set it twice, by name and as %q", o.Name, id)
				}
				v, key, ok = iv, id, true
				used[id] = true
			}
		}
		if !ok && !o.HasDefault {
			return "", false, fmt.Errorf("override %s has no default and the kernel's constants give it no value (WithConstants)", o.Name)
		}
		blank(o.IDAttr)
		edits = append(edits, edit{o.Keyword.Start, o.Keyword.End, "const   "}) // as long as "override"
		if !ok {
			continue
		}
		typ := o.Type
		if typ == "" {
			typ = inferOverrideType(source[o.Init.Start:o.Init.End])
		}
		lit, err := overrideLiteral(typ, v)
		if err != nil {
			return "", false, fmt.Errorf("override %s: constant %q: %v", o.Name, key, err)
		}
		if o.Init.End > o.Init.Start {
			old := source[o.Init.Start:o.Init.End]
			if typ == "" {
				// The initializer's type, whatever it is, converts the
				// abstract literal: select keeps the value, not the
				// expression.
				lit = "select(" + old + ", " + lit + ", true)"
			} else {
				lit += strings.Repeat("\n", strings.Count(old, "\n"))
			}
			edits = append(edits, edit{o.Init.Start, o.Init.End, lit})
		} else {
			semi := o.Decl.End - 1 // the declaration ends in its ';'
			edits = append(edits, edit{semi, semi, " = " + lit})
		}
	}
	for k := range constants {
		if !used[k] { // a name set by @id is marked above
			names := make([]string, len(m.Overrides))
			for i, o := range m.Overrides {
				names[i] = o.Name
			}
			return "", false, fmt.Errorf("constant %q names no override of the module (it has %s)", k, strings.Join(names, ", "))
		}
	}
	slices.SortFunc(edits, func(a, b edit) int { return a.at - b.at })
	var b strings.Builder
	b.Grow(len(source) + 16*len(edits))
	last := 0
	for _, e := range edits {
		b.WriteString(source[last:e.at])
		b.WriteString(e.text)
		last = e.end
	}
	b.WriteString(source[last:])
	return b.String(), true, nil
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

// blankLike returns s with every character but newlines made a space.
func blankLike(s string) string {
	b := []byte(s)
	for i, c := range b {
		if c != '\n' && c != '\r' {
			b[i] = ' '
		}
	}
	return string(b)
}

// inferOverrideType is the type of an override declared without one, from
// its initializer: an override's type is concrete, so an abstract integer
// is i32 and an abstract float f32. An initializer that is not a plain
// literal gives "", and the value is then written as an abstract literal
// that the initializer's type converts (overrideLiteral).
func inferOverrideType(init string) string {
	s := strings.TrimSpace(init)
	s = strings.TrimPrefix(s, "-")
	switch {
	case s == "true" || s == "false":
		return "bool"
	case s == "":
		return ""
	}
	if _, err := strconv.ParseFloat(strings.TrimRight(s, "fhiu"), 64); err != nil {
		if _, err := strconv.ParseInt(strings.TrimRight(s, "iu"), 0, 64); err != nil {
			return ""
		}
	}
	switch {
	case strings.HasSuffix(s, "u"):
		return "u32"
	case strings.HasSuffix(s, "i"):
		return "i32"
	case strings.HasSuffix(s, "h"):
		return "f16"
	case strings.HasSuffix(s, "f") && !strings.HasPrefix(s, "0x"):
		return "f32"
	case strings.ContainsAny(s, ".eEpP") && !strings.HasPrefix(s, "0x") || strings.HasPrefix(s, "0x") && strings.ContainsAny(s, ".pP"):
		return "f32"
	}
	return "i32"
}

// overrideLiteral writes v as a WGSL literal of type typ, or says why typ
// cannot hold it.
func overrideLiteral(typ string, v float64) (string, error) {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return "", fmt.Errorf("%v is not a finite number", v)
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
	switch typ {
	case "bool":
		return strconv.FormatBool(v != 0), nil
	case "i32":
		if err := whole(math.MinInt32, math.MaxInt32); err != nil {
			return "", err
		}
		return "i32(" + strconv.FormatInt(int64(v), 10) + ")", nil
	case "u32":
		if err := whole(0, math.MaxUint32); err != nil {
			return "", err
		}
		return strconv.FormatUint(uint64(v), 10) + "u", nil
	case "f32":
		if math.Abs(v) > math.MaxFloat32 {
			return "", fmt.Errorf("%v is out of f32's range", v)
		}
		return "f32(" + floatLiteral(v) + ")", nil
	case "f16":
		if math.Abs(v) > 65504 {
			return "", fmt.Errorf("%v is out of f16's range", v)
		}
		return "f16(" + floatLiteral(v) + ")", nil
	case "":
		return floatLiteral(v), nil
	}
	return "", fmt.Errorf("type %s cannot be an override's", typ)
}

// floatLiteral writes v as an abstract WGSL literal: an integer when v is
// whole and small, else a float with a '.' or an exponent.
func floatLiteral(v float64) string {
	if v == math.Trunc(v) && math.Abs(v) < 1<<53 {
		return strconv.FormatFloat(v, 'f', -1, 64)
	}
	s := strconv.FormatFloat(v, 'g', -1, 64)
	if !strings.ContainsAny(s, ".e") {
		s += ".0"
	}
	return s
}
