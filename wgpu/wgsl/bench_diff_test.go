package wgsl

// Temporary: the old and the new Parse side by side, interleaved.

import (
	"fmt"
	"os"
	"strings"
	"testing"
)

func benchLitFns(total, stmtsPerFn int) string {
	var b strings.Builder
	b.WriteString("@group(0) @binding(0) var<storage, read_write> out: array<f32>;\n")
	n := 22
	var calls []string
	for f := 0; n < total-40; f++ {
		k := min(stmtsPerFn, (total-40-n-16)/12)
		if k <= 0 {
			break
		}
		fmt.Fprintf(&b, "fn g%d() -> f32 {\n  var s = 1.0;\n", f)
		b.WriteString(strings.Repeat("  s = s + 1.0 + 1.0 + 1.0 + 1.0;\n", k))
		b.WriteString("  return s;\n}\n")
		n += 16 + 12*k
		calls = append(calls, fmt.Sprintf("g%d()", f))
	}
	fmt.Fprintf(&b, "@compute @workgroup_size(1) fn main() {\n  out[0] = %s;\n}\n", strings.Join(calls, " + "))
	return b.String()
}

func benchLocals(fns, n int) string {
	var b strings.Builder
	b.WriteString("@group(0) @binding(0) var<storage, read_write> out: array<f32>;\n")
	var calls []string
	for f := range fns {
		fmt.Fprintf(&b, "fn g%d(x: f32) -> f32 {\n  var v0 = x + 1.0;\n", f)
		for i := 1; i < n; i++ {
			fmt.Fprintf(&b, "  var v%d = v%d * 1.5 + %d.0;\n", i, i-1, i)
		}
		fmt.Fprintf(&b, "  return v%d;\n}\n", n-1)
		calls = append(calls, fmt.Sprintf("g%d(1.0)", f))
	}
	fmt.Fprintf(&b, "@compute @workgroup_size(1) fn main() {\n  out[0] = %s;\n}\n", strings.Join(calls, " + "))
	return b.String()
}

func BenchmarkParseImpl(b *testing.B) {
	largest, err := os.ReadFile("../testdata/corpus/sort/gausplat__transform_backward__kernel.wgsl")
	if err != nil {
		b.Fatal(err)
	}
	inputs := []struct {
		name string
		src  string
		lim  Limits
	}{
		{"corpus-largest", string(largest), Limits{}},
		{"limit-fn-literals", benchLitFns(DefaultMaxModuleTokens, 340), Limits{}},
		{"limit-locals", benchLocals(2, 450), Limits{}},
		{"bytes=1MiB", bigSourceForDiff(1<<20 - 512), Limits{MaxModuleTokens: 1 << 30}},
	}
	impls := []struct {
		name  string
		parse func(string, Limits) (*Module, error)
	}{{"old", parseOld}, {"new", Parse}}
	for _, in := range inputs {
		for _, im := range impls {
			b.Run("input="+in.name+"/impl="+im.name, func(b *testing.B) {
				b.SetBytes(int64(len(in.src)))
				b.ReportAllocs()
				for b.Loop() {
					if _, err := im.parse(in.src, in.lim); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
