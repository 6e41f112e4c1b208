package wgsl_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/streamgate/streamgate/wgpu/wgsl"
)

// nagaShapes are the sources measured to overflow naga's stack in
// wgpu-native (go-webgpu v0.17.1, Mesa lavapipe, 8 MiB thread stack): each
// shape at n, with the smallest n that crashed the process (bisected in a
// child process, to within 5%). Fn call chains did not crash up to 131072;
// 65536 chained lets compiled in 15 s, 131072 took over 120 s.
var nagaShapes = []struct {
	name  string
	crash int
	src   func(n int) string
}{
	{"parens", 2944, func(n int) string {
		return body("x[0] = " + strings.Repeat("(", n) + "1u" + strings.Repeat(")", n) + ";")
	}},
	{"index", 2944, func(n int) string {
		return body("x[0] = " + strings.Repeat("x[", n) + "0" + strings.Repeat("]", n) + ";")
	}},
	{"braces", 8448, func(n int) string { return body(strings.Repeat("{", n) + "x[0] = 1u;" + strings.Repeat("}", n)) }},
	{"else-if", 8448, func(n int) string {
		var b strings.Builder
		b.WriteString("if x[1] == 0u { x[0] = 0u; }")
		for i := 0; i < n; i++ {
			fmt.Fprintf(&b, " else if x[1] == %du { x[0] = %du; }", i+1, i)
		}
		return body(b.String())
	}},
	{"negation", 13312, func(n int) string { return body("let v = " + strings.Repeat("- ", n) + "1i;\nx[0] = u32(v);") }},
	{"not", 13312, func(n int) string {
		return body("let v = " + strings.Repeat("!", n) + "true;\nx[0] = select(0u, 1u, v);")
	}},
	{"deref-addr", 7936, func(n int) string { return body("let p = &x[0];\nx[0] = " + strings.Repeat("*&", n) + "*p;") }},
	{"binary", 13312, func(n int) string { return body("x[0] = 1u" + strings.Repeat(" + x[1]", n) + ";") }},
	{"swizzle", 19456, func(n int) string {
		return body("let v = vec4<u32>(1u);\nx[0] = v" + strings.Repeat(".wzyx", n) + ".x;")
	}},
	{"array-type", 16896, func(n int) string {
		return "@group(0) @binding(0) var<storage, read_write> x: " + strings.Repeat("array<", n) + "u32" + strings.Repeat(", 1>", n) + ";\n@compute @workgroup_size(1)\nfn main() {}\n"
	}},
	{"const-chain", 26624, func(n int) string {
		var b strings.Builder
		b.WriteString(body("x[0] = c0;"))
		for i := 0; i < n; i++ {
			fmt.Fprintf(&b, "const c%d = c%d + 1u;\n", i, i+1)
		}
		fmt.Fprintf(&b, "const c%d = 1u;\n", n)
		return b.String()
	}},
	{"struct-chain", 26624, func(n int) string {
		var b strings.Builder
		b.WriteString("@group(0) @binding(0) var<storage, read_write> x: S0;\n@compute @workgroup_size(1)\nfn main() { x.a = 1u; }\n")
		for i := 0; i < n; i++ {
			fmt.Fprintf(&b, "struct S%d { a: u32, s: S%d }\n", i, i+1)
		}
		fmt.Fprintf(&b, "struct S%d { a: u32 }\n", n)
		return b.String()
	}},
}

func body(stmts string) string {
	return "@group(0) @binding(0) var<storage, read_write> x: array<u32>;\n@compute @workgroup_size(1)\nfn main() {\n" + stmts + "\n}\n"
}

// TestNagaCrashShapes checks that Parse with the default limits refuses
// every shape that crashed naga, already at a tenth of its crash depth, and
// accepts it at a depth real kernels use.
func TestNagaCrashShapes(t *testing.T) {
	for _, s := range nagaShapes {
		t.Run(s.name, func(t *testing.T) {
			if _, err := wgsl.Parse(s.src(8), wgsl.Limits{}); err != nil {
				t.Errorf("Parse(%s at 8) = %v, want it accepted", s.name, err)
			}
			for _, n := range []int{s.crash / 10, s.crash} {
				if _, err := wgsl.Parse(s.src(n), wgsl.Limits{}); err == nil {
					t.Errorf("Parse(%s at %d) accepted it; naga crashes at %d", s.name, n, s.crash)
				}
			}
		})
	}
}
