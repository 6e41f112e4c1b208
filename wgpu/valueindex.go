package wgpu

import (
	"regexp"
	"strconv"
	"strings"
)

// The driver's compiler (naga 0.13) indexes an array value (a let, a
// function parameter) only by a constant; WGSL, and naga 30, allow any
// index. indexThroughVars rewrites the lowered source (naga's WGSL writer's
// regular output) so that every such value is indexed through a variable
// holding a copy of it, which the old compiler indexes freely and which
// computes the same thing: a `let x = e;` whose x is indexed by a
// non-literal becomes `var x = e;`, and a parameter p of array or struct
// type gets a variable copy of it at the function's start, and a constant
// array constructor indexed so (naga inlines consts and constant lets) is
// hoisted into a module-scope var<private>. Nothing else changes: a
// lowered source without such an index comes back as it was.

var (
	// fnHeader matches a function's header up to its body's '{'.
	fnHeader = regexp.MustCompile(`(?m)^fn ([A-Za-z_][A-Za-z0-9_]*)\(((?:[^()]|\([^()]*\))*)\)( -> [^{]+)? \{`)
	// structDecl matches a struct declaration's name.
	structDecl = regexp.MustCompile(`(?m)^struct ([A-Za-z_][A-Za-z0-9_]*) \{`)
	// letDecl matches a let declaration inside a body.
	letDecl = regexp.MustCompile(`(?m)^(\s+)let ([A-Za-z_][A-Za-z0-9_]*)( =|:)`)
	// intLiteral is an index the old compiler takes.
	intLiteral = regexp.MustCompile(`^[0-9]+[iu]?$`)
	// constDecl matches a module-scope const of array type.
	constDecl = regexp.MustCompile(`(?m)^const ([A-Za-z_][A-Za-z0-9_]*): (array<[^=]+>) = `)
	// arrayCtor matches the start of an array constructor with its type.
	arrayCtor = regexp.MustCompile(`array<[A-Za-z0-9_<>, ]+>\(`)
	// identifier matches the identifiers of an expression.
	identifier = regexp.MustCompile(`\b[A-Za-z_][A-Za-z0-9_]*`)
)

// typeWords are the identifiers a constant array constructor may hold.
var typeWords = map[string]bool{
	"array": true, "vec2": true, "vec3": true, "vec4": true, "u32": true, "i32": true, "f32": true, "f16": true, "bool": true,
	"true": true, "false": true, "mat2x2": true, "mat3x3": true, "mat4x4": true, "mat2x3": true, "mat2x4": true, "mat3x2": true,
	"mat3x4": true, "mat4x2": true, "mat4x3": true,
}

// hoistConstArrays gives every constant array constructor that lowered
// indexes by a non-literal (naga inlines a const or a let of constant
// value at its uses) a module-scope variable holding it, indexed instead,
// and turns a module-scope array const indexed so into such a variable.
func hoistConstArrays(lowered string) (string, bool) {
	for _, m := range constDecl.FindAllStringSubmatchIndex(lowered, -1) {
		name := lowered[m[2]:m[3]]
		if indexedDynamically(lowered[m[1]:], name) {
			lowered = lowered[:m[0]] + "var<private>" + lowered[m[0]+len("const"):]
			// Offsets after m moved: start over.
			out, _ := hoistConstArrays(lowered)
			return out, true
		}
	}
	var hoisted strings.Builder
	var b strings.Builder
	last, n := 0, 0
	for _, loc := range arrayCtor.FindAllStringIndex(lowered, -1) {
		if loc[0] < last {
			continue
		}
		end := closingParen(lowered, loc[1]-1)
		if end < 0 || end+1 >= len(lowered) || lowered[end+1] != '[' {
			continue
		}
		close := strings.IndexByte(lowered[end+1:], ']')
		if close < 0 || intLiteral.MatchString(strings.TrimSpace(lowered[end+2:end+1+close])) {
			continue
		}
		expr := lowered[loc[0] : end+1]
		constant := true
		for _, w := range identifier.FindAllString(expr, -1) {
			if !typeWords[w] && !intLiteral.MatchString(w) {
				constant = false
				break
			}
		}
		if !constant {
			continue
		}
		typ := lowered[loc[0] : loc[1]-1]
		name := "sg_const_array_" + strconv.Itoa(n)
		n++
		hoisted.WriteString("var<private> " + name + ": " + typ + " = " + expr + ";\n")
		b.WriteString(lowered[last:loc[0]])
		b.WriteString(name)
		last = end + 1
	}
	if n == 0 {
		return lowered, false
	}
	b.WriteString(lowered[last:])
	return hoisted.String() + b.String(), true
}

// closingParen returns the index of the ')' that closes the '(' at open,
// or -1.
func closingParen(s string, open int) int {
	depth := 0
	for i := open; i < len(s); i++ {
		switch s[i] {
		case '(':
			depth++
		case ')':
			depth--
			if depth == 0 {
				return i
			}
		}
	}
	return -1
}

// indexThroughVars returns lowered with the rewrite described above, and
// whether it changed anything.
func indexThroughVars(lowered string) (string, bool) {
	lowered, hoisted := hoistConstArrays(lowered)
	structs := map[string]bool{}
	for _, m := range structDecl.FindAllStringSubmatch(lowered, -1) {
		structs[m[1]] = true
	}
	headers := fnHeader.FindAllStringSubmatchIndex(lowered, -1)
	var b strings.Builder
	last, changed := 0, false
	for i, h := range headers {
		bodyStart := h[1]
		bodyEnd := len(lowered)
		if i+1 < len(headers) {
			bodyEnd = headers[i+1][0]
		}
		body := lowered[bodyStart:bodyEnd]
		params := lowered[h[4]:h[5]]
		newParams, copies := copyValueParams(params, body, structs)
		newBody := letsToVars(body)
		if copies == "" && newBody == body {
			continue
		}
		changed = true
		b.WriteString(lowered[last:h[4]])
		b.WriteString(newParams)
		b.WriteString(lowered[h[5]:bodyStart])
		b.WriteString(copies)
		b.WriteString(newBody)
		last = bodyEnd
	}
	if !changed {
		return lowered, hoisted
	}
	b.WriteString(lowered[last:])
	return b.String(), true
}

// copyValueParams renames each parameter of array or struct type that body
// indexes by a non-literal, and returns the renamed list with the
// statements that copy them into variables of the old names.
func copyValueParams(params, body string, structs map[string]bool) (string, string) {
	if strings.TrimSpace(params) == "" {
		return params, ""
	}
	parts := splitTopLevel(params)
	var copies strings.Builder
	for i, p := range parts {
		name, typ, ok := strings.Cut(p, ":")
		if !ok || strings.Contains(name, "@") {
			continue
		}
		name, typ = strings.TrimSpace(name), strings.TrimSpace(typ)
		if !strings.HasPrefix(typ, "array<") && !structs[typ] {
			continue
		}
		if !indexedDynamically(body, name) {
			continue
		}
		parts[i] = strings.Replace(p, name, "sg_value_"+name, 1)
		copies.WriteString("\n    var " + name + " = sg_value_" + name + ";")
	}
	return strings.Join(parts, ","), copies.String()
}

// letsToVars turns the lets of body that are indexed by a non-literal into
// vars.
func letsToVars(body string) string {
	locs := letDecl.FindAllStringSubmatchIndex(body, -1)
	if len(locs) == 0 {
		return body
	}
	var b strings.Builder
	last := 0
	for _, l := range locs {
		name := body[l[4]:l[5]]
		if !indexedDynamically(body, name) {
			continue
		}
		kw := l[3] // just past the indentation: the "let"
		b.WriteString(body[last:kw])
		b.WriteString("var")
		last = kw + len("let")
	}
	b.WriteString(body[last:])
	return b.String()
}

// indexedDynamically reports whether src indexes name, or a member chain of
// it (name.a.b[...]), by something other than an integer literal.
func indexedDynamically(src, name string) bool {
	for i := 0; ; {
		j := strings.Index(src[i:], name)
		if j < 0 {
			return false
		}
		at := i + j
		i = at + len(name)
		if at > 0 && (isIdentByte(src[at-1]) || src[at-1] == '.') {
			continue
		}
		k := i
		for k < len(src) && (src[k] == '.' || isIdentByte(src[k])) {
			k++
		}
		if k < len(src) && src[k] == '[' {
			end := strings.IndexByte(src[k:], ']')
			if end > 0 && !intLiteral.MatchString(strings.TrimSpace(src[k+1:k+end])) {
				return true
			}
		}
	}
}

// splitTopLevel splits a parameter list at the commas outside <> and ().
func splitTopLevel(s string) []string {
	var out []string
	depth, start := 0, 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '<', '(':
			depth++
		case '>', ')':
			depth--
		case ',':
			if depth == 0 {
				out = append(out, s[start:i])
				start = i + 1
			}
		}
	}
	return append(out, s[start:])
}
