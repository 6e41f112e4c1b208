package wgsl

import (
	"slices"
	"strings"
	"testing"
)

// usesOf parses src into a tree and returns the names of the module-scope
// declarations that fn f uses, as resolve finds them, sorted.
func usesOf(t *testing.T, src string) []string {
	t.Helper()
	file, err := ParseFile(src, DefaultLimits())
	if err != nil {
		t.Fatalf("ParseFile(%q) = %v", src, err)
	}
	a := &analysis{src: src, lim: DefaultLimits(), decls: map[string]Decl{}, enables: map[string]bool{}}
	if err := a.declarations(file); err != nil {
		t.Fatalf("declarations(%q) = %v", src, err)
	}
	f, ok := a.decls["f"].(*FuncDecl)
	if !ok {
		t.Fatalf("source %q declares no fn f", src)
	}
	names := []string{}
	for _, d := range a.resolve().uses[f] {
		names = append(names, declName(d))
	}
	slices.Sort(names)
	return names
}

func TestResolve(t *testing.T) {
	const globals = "var<private> a: u32; var<private> b: u32; var<private> c: u32; struct S { a: u32 } const N = 4u; override O: u32; fn g() {}\n"
	tests := []struct {
		name string
		src  string
		want string // the names fn f uses, sorted, comma-separated
	}{
		{"plain", "fn f() { a = b; }", "a,b"},
		{"call", "fn f() { g(); }", "g"},
		{"self-call", "fn f() { f(); }", "f"},
		{"param-shadows", "fn f(a: u32) { b = a; }", "b"},
		{"param-type", "fn f(s: S, a: array<u32, N>) -> S { return s; }", "N,S"},
		{"param-attr-builtin", "@compute @workgroup_size(O) fn f(@builtin(a) x: u32, @location(N) y: u32) {}", "N,O"},
		{"return-attr", "fn f() -> @location(N) vec4f { return vec4f(); }", "N"},
		{"param-not-in-return-type", "fn f(S: u32) -> S { return S(); }", "S"},
		{"let-shadows-after-semicolon", "fn f() { let a = a + 1u; b = a; }", "a,b"},
		{"let-shadows", "fn f() { let a = 1u; b = a; }", "b"},
		{"var-shadows", "fn f() { var a: u32; var<function> b = a; c = b; }", "c"},
		{"const-shadows", "fn f() { const a = N; b = a; }", "N,b"},
		{"var-template-not-a-use", "fn f() { var<function> c: u32; }", ""},
		{"member-access", "fn f() { var s: S; s.a = 1u; let v = vec2u(); b = v.x + s.a; }", "S,b"},
		{"nested-block-ends-shadow", "fn f() { { let a = 1u; b = a; } c = a; }", "a,b,c"},
		{"inner-shadow-outer-use", "fn f() { let b = 2u; { let a = b; } a = 1u; }", "a"},
		{"for-var", "fn f() { for (var a = 0u; a < 4u; a++) { b = a; } }", "b"},
		{"for-var-ends-with-body", "fn f() { for (var a = 0u; a < 4u; a++) { } c = a; }", "a,c"},
		{"for-var-init-is-outer", "fn f() { for (var a = a; a < 4u; a++) { } }", "a"},
		{"for-in-for", "fn f() { for (var a = 0u; a < 2u; a++) { for (var b = a; b < 4u; b++) { c = b; } b = a; } }", "b,c"},
		{"loop-continuing", "fn f() { loop { let a = 1u; continuing { b = a; break if a > 0u; } } c = a; }", "a,b,c"},
		{"if-else-scopes", "fn f() { if true { let a = 1u; _ = a; } else { _ = a; } }", "a"},
		{"switch-case", "fn f() { switch b { case N: { let c = 1u; _ = c; } default: { _ = c; } } }", "N,b,c"},
		{"shadowed-fn", "fn f() { let g = 1u; _ = g; }", ""},
		{"shadow-in-block-then-call", "fn f() { { let g = 1u; _ = g; } g(); }", "g"},
		{"type-ctor", "fn f() -> S { return S(N); }", "N,S"},
		{"unknown-names", "fn f() { let x = max(1u, 2u); _ = x; }", ""},
		{"attribute-in-body", "fn f() { @diagnostic(off, a) if true { } }", ""},
		{"ptr-param", "fn f(p: ptr<function, S>) { (*p).a = N; }", "N,S"},
		{"while-body-scope", "fn f() { while b > 0u { let a = 1u; _ = a; } _ = a; }", "a,b"},
		{"local-array-count", "fn f() { var x: array<u32, N>; _ = x; }", "N"},
		{"continuing-sees-loop-body", "fn f() { loop { var a = 0u; continuing { a = b; } } }", "b"},
		{"switch-selector", "fn f() { switch 1u { case N, default { } } }", "N"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := strings.Join(usesOf(t, globals+tc.src), ",")
			if got != tc.want {
				t.Errorf("resolve(%q) uses = %q, want %q", tc.src, got, tc.want)
			}
		})
	}
}
