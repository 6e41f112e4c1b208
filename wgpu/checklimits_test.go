package wgpu_test

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/streamgate/streamgate/wgpu"
	"github.com/streamgate/streamgate/wgpu/wgsl"
)

// The costliest shapes found for naga 30's time, each written as large as
// the front-end's default limits admit (atLimit) or past them (over). Its
// time grows with the square of the float literals and operators of one
// function body, and of the module-scope declarations: see
// [wgsl.DefaultMaxFunctionTokens] and [wgsl.DefaultMaxModuleTokens].

const limitsHeader = "@group(0) @binding(0) var<storage, read_write> out: array<f32>;\n"

// litFns writes functions of statements "s = s + 1.0 + 1.0 + 1.0 + 1.0;"
// (12 tokens), each body as long as MaxFunctionTokens allows, until the
// module holds about total tokens, and an entry point calling them.
func litFns(total, stmtsPerFn int) string {
	var b strings.Builder
	b.WriteString(limitsHeader)
	n := 22 // the header's tokens
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

// constDecls writes n module-scope consts "const cI: f32 = I.0 + 1.5 * I.25;"
// (11 tokens), each used by the entry point's sum... through the last one.
func constDecls(n int) string {
	var b strings.Builder
	b.WriteString(limitsHeader)
	for i := range n {
		fmt.Fprintf(&b, "const c%d: f32 = %d.0 + 1.5 * %d.25;\n", i, i, i)
	}
	fmt.Fprintf(&b, "@compute @workgroup_size(1) fn main() {\n  out[0] = c%d;\n}\n", n-1)
	return b.String()
}

// structDecls writes n structs of 23 tokens each.
func structDecls(n int) string {
	var b strings.Builder
	b.WriteString(limitsHeader)
	for i := range n {
		fmt.Fprintf(&b, "struct S%d { a: f32, b: vec4<f32>, c: array<u32, 4> }\n", i)
	}
	b.WriteString("@compute @workgroup_size(1) fn main() {\n  out[0] = 1.0;\n}\n")
	return b.String()
}

// locals writes fns functions of n chained locals each: the shapes a
// review measured at seconds under the previous limits.
func locals(fns, n int) string {
	var b strings.Builder
	b.WriteString(limitsHeader)
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

var limitShapes = []struct {
	name     string
	atLimit  string
	over     string
	overWant string // in the refusal's message
}{
	{"fn-literals", litFns(wgsl.DefaultMaxModuleTokens, 340), litFns(wgsl.DefaultMaxModuleTokens, 341), "the body of fn g0 has 4100 tokens, more than the limit of 4096"},
	{"module-literals", "", litFns(wgsl.DefaultMaxModuleTokens+400, 340), "more than 10240 tokens"},
	{"consts", constDecls(925), constDecls(935), "more than 10240 tokens"},
	{"structs", structDecls(440), structDecls(450), "more than 10240 tokens"},
	{"locals", locals(2, 450), locals(1, 560), "the body of fn g0 has 5041 tokens"},
	{"review-40x560", "", locals(40, 560), "more than 10240 tokens"},
	{"review-400x50", "", locals(400, 50), "more than 10240 tokens"},
}

var positioned = regexp.MustCompile(`wgsl:\d+:\d+: `)

// TestCheckAtLimits: the costliest shapes as large as the limits admit
// check and lower; one step past a limit is refused as a Limit error with
// its line, column and limit, before the compiler sees it. The time each
// takes is BenchmarkCheckAtLimits's.
//
// What it asserts is that they are admitted, not how fast: the at-limit
// shapes take about 0.5–1 s on 2 idle cores, and on a loaded machine they
// passed LoweringTimeout's 10 s, so the test lowers under a bound of its own.
func TestCheckAtLimits(t *testing.T) {
	defer wgpu.SetLoweringTimeoutForTest(5 * time.Minute)()
	for _, s := range limitShapes {
		t.Run(s.name, func(t *testing.T) {
			if s.atLimit != "" {
				if _, err := wgpu.CheckModule(context.Background(), s.atLimit, nil, wgpu.Limits{}); err != nil {
					t.Errorf("CheckModule(at the limits) = %v, want nil", err)
				}
			}
			_, err := wgpu.CheckModule(context.Background(), s.over, nil, wgpu.Limits{})
			var we *wgpu.Error
			if !errors.As(err, &we) || we.Type != wgpu.ErrorTypeLimit || !strings.Contains(err.Error(), s.overWant) || !positioned.MatchString(err.Error()) {
				t.Errorf("CheckModule(past the limits) = %v, want a positioned Limit error containing %q", err, s.overWant)
			}
		})
	}
}

// BenchmarkCheckAtLimits times CheckModule, the lowering included, on each
// costliest shape at the limits (shape=...) and on its refusal
// (shape=.../refused); a fresh comment each round defeats the result cache.
func BenchmarkCheckAtLimits(b *testing.B) {
	ctx := context.Background()
	if _, err := wgpu.CheckModule(ctx, limitsHeader+"@compute @workgroup_size(1) fn main() { out[0] = 1.0; }", nil, wgpu.Limits{}); err != nil {
		b.Fatal(err) // start the sandbox outside the timings
	}
	round := 0
	for _, s := range limitShapes {
		for _, refused := range []bool{false, true} {
			src, name := s.atLimit, "shape="+s.name
			if refused {
				src, name = s.over, name+"/refused"
			}
			if src == "" {
				continue
			}
			b.Run(name, func(b *testing.B) {
				for b.Loop() {
					round++
					_, err := wgpu.CheckModule(ctx, fmt.Sprintf("%s// round %d\n", src, round), nil, wgpu.Limits{})
					if (err != nil) != refused {
						b.Fatalf("CheckModule = %v, want refused %v", err, refused)
					}
				}
			})
		}
	}
}
