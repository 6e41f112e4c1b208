package wgsl_test

import (
	"os"
	"strings"
	"testing"

	"github.com/streamgate/streamgate/wgpu/wgsl"
)

// TestNestingStopsEarly checks that 10,000 nested parentheses are refused at
// the first parenthesis past the limit, long before the end of the source.
func TestNestingStopsEarly(t *testing.T) {
	for _, limit := range []int{0, 16, 255} {
		want := limit
		if want == 0 {
			want = wgsl.DefaultMaxNestingDepth
		}
		src := "@compute @workgroup_size(1) fn main() { let x = " + strings.Repeat("(", 10000) + "1" + strings.Repeat(")", 10000) + "; }"
		_, err := wgsl.Parse(src, wgsl.Limits{MaxNestingDepth: limit})
		e, ok := err.(*wgsl.Error)
		if !ok {
			t.Fatalf("Parse(10000 parens, limit %d) = %v, want a *wgsl.Error", limit, err)
		}
		// The body's '{' is one level: the error is at paren number want.
		col := strings.Index(src, "(((") + want
		if e.Line != 1 || e.Column != col {
			t.Errorf("Parse(10000 parens, limit %d) = %v, want column %d", limit, err, col)
		}
	}
}

// TestDefaultsUnderMeasuredCrashes pins the defaults below a tenth of the
// smallest crash depths measured for naga (see DefaultLimits).
func TestDefaultsUnderMeasuredCrashes(t *testing.T) {
	d := wgsl.DefaultLimits()
	const (
		nagaParens        = 2900  // (((...))) and x[x[...]]
		nagaBinaryTerms   = 13000 // 1u + x[1] + x[1] + ...
		nagaConstChain    = 26000 // const c0 = c1 + 1u; const c1 = ...
		nagaPostfixChain  = 19000 // v.wzyx.wzyx...
		minTokensPerTerm  = 2     // "+ 1"
		minTokensPerField = 2     // ".x"
	)
	if d.MaxNestingDepth*10 > nagaParens {
		t.Errorf("MaxNestingDepth = %d, want at most %d", d.MaxNestingDepth, nagaParens/10)
	}
	if d.MaxExpressionTokens/minTokensPerTerm*10 > nagaBinaryTerms {
		t.Errorf("MaxExpressionTokens = %d allows %d binary terms, want at most %d", d.MaxExpressionTokens, d.MaxExpressionTokens/minTokensPerTerm, nagaBinaryTerms/10)
	}
	if d.MaxExpressionTokens/minTokensPerField*10 > nagaPostfixChain {
		t.Errorf("MaxExpressionTokens = %d allows %d postfix accesses, want at most %d", d.MaxExpressionTokens, d.MaxExpressionTokens/minTokensPerField, nagaPostfixChain/10)
	}
	if d.MaxDeclarationDepth*10 > nagaConstChain {
		t.Errorf("MaxDeclarationDepth = %d, want at most %d", d.MaxDeclarationDepth, nagaConstChain/10)
	}
}

// bigSource returns a valid module of about n bytes: many consts, structs,
// bindings and functions.
func bigSource(n int) string {
	var b strings.Builder
	for i := 0; b.Len() < n; i++ {
		s := itoa(i)
		b.WriteString("const c" + s + " = (" + s + "u + 3u) * 2u;\n")
		b.WriteString("struct S" + s + " { a: vec3f, @align(16) b: array<u32, c" + s + ">, }\n")
		b.WriteString("@group(" + s + ") @binding(0) var<storage, read_write> x" + s + ": array<S" + s + ">;\n")
		b.WriteString("fn f" + s + "(v: u32) -> u32 { var r = v; for (var i = 0u; i < 4u; i++) { r = r * 3u + (i << 1u); } return r; }\n")
	}
	return b.String()
}

// TestBigSource: the front-end itself reads a source of the size limit
// (the module-token limit raised: the default refuses it at once).
func TestBigSource(t *testing.T) {
	src := bigSource(wgsl.DefaultMaxSourceBytes - 512)
	big := wgsl.Limits{MaxModuleTokens: 1 << 30}
	m, err := wgsl.Parse(src, big)
	if err != nil {
		t.Fatalf("Parse(%d bytes) = %v", len(src), err)
	}
	if len(m.Bindings) < 1000 {
		t.Fatalf("Parse(%d bytes): %d bindings, want more than 1000", len(src), len(m.Bindings))
	}
	if b := m.Bindings[7]; b.MinSize != 96 || b.Type != "array<S7>" {
		t.Errorf("Bindings[7] = %+v, want array<S7> of MinSize 96", b)
	}
	if _, err := wgsl.Parse(src+strings.Repeat(" ", 1024), big); err == nil || !strings.Contains(err.Error(), "more than the limit") {
		t.Errorf("Parse(over MaxSourceBytes) = %v, want the size refused", err)
	}
}

// BenchmarkParse shows Parse's time linear in the source size.
func BenchmarkParse(b *testing.B) {
	for _, n := range []int{1 << 10, 1 << 14, 1 << 18, 1 << 20} {
		src := bigSource(n - 512)
		b.Run("bytes="+itoa(n), func(b *testing.B) {
			b.SetBytes(int64(len(src)))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := wgsl.Parse(src, wgsl.Limits{MaxModuleTokens: 1 << 30}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
	// The largest corpus module, and shapes as large as the default
	// limits admit: bodies of MaxFunctionTokens, a module of
	// MaxModuleTokens.
	largest, err := os.ReadFile("../testdata/corpus/sort/gausplat__transform_backward__kernel.wgsl")
	if err != nil {
		b.Fatal(err)
	}
	for _, in := range []struct{ name, src string }{
		{"corpus-largest", string(largest)},
		{"limit-fn-literals", atLimitLiterals()},
		{"limit-locals", atLimitLocals()},
	} {
		b.Run("input="+in.name, func(b *testing.B) {
			b.SetBytes(int64(len(in.src)))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := wgsl.Parse(in.src, wgsl.Limits{}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
	src := "fn f() { let x = " + strings.Repeat("(", 1<<19) + "1" + strings.Repeat(")", 1<<19) + "; }"
	b.Run("shape=parens", func(b *testing.B) {
		for b.Loop() {
			if _, err := wgsl.Parse(src, wgsl.Limits{}); err == nil {
				b.Fatal("accepted")
			}
		}
	})
}

// TestLimitErrorsAreKindLimit: every limit of Limits is reported as
// KindLimit, and a plain mistake as KindInvalid, so that callers need not
// search the message.
func TestLimitErrorsAreKindLimit(t *testing.T) {
	cases := []struct {
		name, src string
		want      wgsl.ErrorKind
	}{
		{"nesting", "const x = " + strings.Repeat("(", 200) + "1" + strings.Repeat(")", 200) + ";", wgsl.KindLimit},
		{"expression", "const x = 1" + strings.Repeat("+1", 3000) + ";", wgsl.KindLimit},
		{"workgroup-memory", "var<workgroup> w: array<f32, 100000>;", wgsl.KindLimit},
		{"size", strings.Repeat(" ", 2<<20) + "const x = 1;", wgsl.KindLimit},
		{"invalid", "const x = ;", wgsl.KindInvalid},
		{"texture-external", "@group(0) @binding(0) var t: texture_external;", wgsl.KindInvalid},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := wgsl.Parse(tc.src, wgsl.Limits{})
			e, ok := err.(*wgsl.Error)
			if !ok {
				t.Fatalf("Parse = %v, want an *wgsl.Error", err)
			}
			if e.Kind != tc.want {
				t.Errorf("Parse(%s).Kind = %v (%v), want %v", tc.name, e.Kind, e, tc.want)
			}
		})
	}
}

// TestFunctionTokens: one function body past MaxFunctionTokens is a limit
// error naming the function; the same statements split into functions are
// accepted (the compiler's time grows with the square of one body).
func TestFunctionTokens(t *testing.T) {
	var one, split strings.Builder
	one.WriteString("fn big() -> i32 { var x = 0;")
	for i := range 1500 {
		one.WriteString(" x = x + 1;")
		if i%100 == 0 {
			if i > 0 {
				split.WriteString(" return x; }\n")
			}
			split.WriteString("fn f" + strings.Repeat("a", i/100+1) + "() -> i32 { var x = 0;")
		}
		split.WriteString(" x = x + 1;")
	}
	one.WriteString(" return x; }")
	split.WriteString(" return x; }")
	_, err := wgsl.Parse(one.String(), wgsl.Limits{})
	e, ok := err.(*wgsl.Error)
	if !ok || e.Kind != wgsl.KindLimit || !strings.Contains(e.Msg, "fn big") {
		t.Errorf("Parse(one body of 1500 statements) = %v, want a KindLimit error naming fn big", err)
	}
	if _, err := wgsl.Parse(split.String(), wgsl.Limits{}); err != nil {
		t.Errorf("Parse(1500 statements in 15 functions) = %v, want nil", err)
	}
}

// TestModuleTokens: a module of MaxModuleTokens tokens is read; one token
// more is a limit error at that token, naming the limit.
func TestModuleTokens(t *testing.T) {
	// const_assert true; is three tokens, a stray ; one.
	lines := wgsl.DefaultMaxModuleTokens / 3
	at := strings.Repeat("const_assert true;\n", lines) + strings.Repeat(";", wgsl.DefaultMaxModuleTokens%3)
	if _, err := wgsl.Parse(at, wgsl.Limits{}); err != nil {
		t.Fatalf("Parse(%d tokens) = %v, want nil", wgsl.DefaultMaxModuleTokens, err)
	}
	_, err := wgsl.Parse(at+"  ;", wgsl.Limits{})
	e, ok := err.(*wgsl.Error)
	if !ok || e.Kind != wgsl.KindLimit {
		t.Fatalf("Parse(%d tokens) = %v, want a KindLimit error", wgsl.DefaultMaxModuleTokens+1, err)
	}
	wantCol := wgsl.DefaultMaxModuleTokens%3 + 3
	if e.Line != lines+1 || e.Column != wantCol || !strings.Contains(e.Msg, "more than "+itoa(wgsl.DefaultMaxModuleTokens)+" tokens") {
		t.Errorf("Parse(%d tokens) = %d:%d: %s, want %d:%d naming the limit", wgsl.DefaultMaxModuleTokens+1, e.Line, e.Column, e.Msg, lines+1, wantCol)
	}
	// A lower limit of the caller's own is the one that counts.
	_, err = wgsl.Parse(at, wgsl.Limits{MaxModuleTokens: 100})
	if e, ok := err.(*wgsl.Error); !ok || e.Kind != wgsl.KindLimit || e.Line != 34 || !strings.Contains(e.Msg, "more than 100 tokens") {
		t.Errorf("Parse(MaxModuleTokens 100) = %v, want a KindLimit error at line 34 naming 100 tokens", err)
	}
}

// atLimitLiterals is a module of about MaxModuleTokens tokens: functions of
// statements s = s + 1.0 + 1.0 + 1.0 + 1.0; (12 tokens), each body just
// under MaxFunctionTokens (340 statements), and an entry point calling
// them.
func atLimitLiterals() string {
	var b strings.Builder
	b.WriteString("@group(0) @binding(0) var<storage, read_write> out: array<f32>;\n")
	n := 22 // the header's tokens
	var calls []string
	for f := 0; n < wgsl.DefaultMaxModuleTokens-40; f++ {
		k := min(340, (wgsl.DefaultMaxModuleTokens-40-n-16)/12)
		if k <= 0 {
			break
		}
		b.WriteString("fn g" + itoa(f) + "() -> f32 {\n  var s = 1.0;\n")
		b.WriteString(strings.Repeat("  s = s + 1.0 + 1.0 + 1.0 + 1.0;\n", k))
		b.WriteString("  return s;\n}\n")
		n += 16 + 12*k
		calls = append(calls, "g"+itoa(f)+"()")
	}
	b.WriteString("@compute @workgroup_size(1) fn main() {\n  out[0] = " + strings.Join(calls, " + ") + ";\n}\n")
	return b.String()
}

// atLimitLocals is two functions of 450 chained locals each (var vI =
// vJ * 1.5 + I.0;), about 4,050 tokens a body.
func atLimitLocals() string {
	var b strings.Builder
	b.WriteString("@group(0) @binding(0) var<storage, read_write> out: array<f32>;\n")
	for f := range 2 {
		b.WriteString("fn g" + itoa(f) + "(x: f32) -> f32 {\n  var v0 = x + 1.0;\n")
		for i := 1; i < 450; i++ {
			b.WriteString("  var v" + itoa(i) + " = v" + itoa(i-1) + " * 1.5 + " + itoa(i) + ".0;\n")
		}
		b.WriteString("  return v449;\n}\n")
	}
	b.WriteString("@compute @workgroup_size(1) fn main() {\n  out[0] = g0(1.0) + g1(1.0);\n}\n")
	return b.String()
}
