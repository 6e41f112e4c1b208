package naga_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/streamgate/streamgate/wgpu/internal/naga"
)

// testCtx bounds a test's calls, so that a regression fails, not hangs.
func testCtx(t testing.TB) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	t.Cleanup(cancel)
	return ctx
}

func TestLower(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		want      []string
	}{
		{
			name: "abstract literal",
			src:  "fn f() -> f32 { var v: f32 = 0; return v; }",
			want: []string{"0f"},
		},
		{
			name: "array size",
			src:  "var<private> a: array<f32, 64 * 8>;\nfn f() -> f32 { return a[0]; }",
			want: []string{"array<f32, 512>"},
		},
		{
			name: "workgroup size",
			src:  "const WG = 64;\n@compute @workgroup_size(WG)\nfn main() {}",
			want: []string{"@workgroup_size(64, 1, 1)"},
		},
		{
			name: "case selector",
			src:  "fn f(x: u32) -> u32 {\n  switch x { case 1: { return 2u; } default: { return 0u; } }\n}",
			want: []string{"case 1u:"},
		},
		{
			name: "deep nesting",
			src:  "fn f() -> i32 { return " + strings.Repeat("(", 100) + "1" + strings.Repeat(")", 100) + "; }",
			want: []string{"return 1i;"},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, err := naga.Lower(testCtx(t), tc.src)
			if err != nil {
				t.Fatalf("Lower(%q) error: %v", tc.src, err)
			}
			for _, w := range tc.want {
				if !strings.Contains(out, w) {
					t.Errorf("Lower(%q) = %q, want it to contain %q", tc.src, out, w)
				}
			}
		})
	}
}

func TestLowerErrors(t *testing.T) {
	for _, tc := range []struct {
		name, src   string
		stage       string
		line, col   int
		errorPrefix string
	}{
		{
			name: "parse", src: "fn main( {",
			stage: naga.StageParse, line: 1, col: 10,
			errorPrefix: `1:10: expected identifier, found "{"`,
		},
		{
			name: "parse on line 3", src: "const a = 1;\n\nfn f() { let x = ; }",
			stage: naga.StageParse, line: 3, col: 18,
			errorPrefix: "3:18: expected expression",
		},
		{
			// naga 30's front end type-checks: this is a parse error.
			name: "type mismatch", src: "fn f() { let x: u32 = 1.5; }",
			stage: naga.StageParse, line: 1, col: 14,
			errorPrefix: "1:14: the type of `x` is expected to be `u32`",
		},
		{
			name: "validate", src: "@compute @workgroup_size(1)\nfn main() {\n  var a: array<f32, 4>;\n  let b = a[5];\n}",
			stage: naga.StageValidate, line: 4, col: 11,
			errorPrefix: "4:11: Entry point main at Compute is invalid",
		},
		{
			name: "not UTF-8", src: "fn f() {}\n\xff",
			stage: naga.StageParse, line: 2, col: 1,
			errorPrefix: "2:1: source is not valid UTF-8",
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := naga.Lower(testCtx(t), tc.src)
			var e *naga.Error
			if !errors.As(err, &e) {
				t.Fatalf("Lower(%q) error = %v, want a *naga.Error", tc.src, err)
			}
			if e.Stage != tc.stage || e.Line != tc.line || e.Column != tc.col {
				t.Errorf("Lower(%q) error at %s %d:%d, want %s %d:%d\n%s", tc.src, e.Stage, e.Line, e.Column, tc.stage, tc.line, tc.col, e.Full)
			}
			if !strings.HasPrefix(e.Error(), tc.errorPrefix) {
				t.Errorf("Error() = %q, want prefix %q", e.Error(), tc.errorPrefix)
			}
			if e.Full == "" {
				t.Errorf("Full is empty")
			}
		})
	}
}

func TestLowerConcurrent(t *testing.T) {
	ctx := testCtx(t)
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for i := range 20 {
				n := 1 + g*100 + i
				src := fmt.Sprintf("var<private> a: array<f32, %d * 2>;\nfn f() -> f32 { return a[0]; }", n)
				out, err := naga.Lower(ctx, src)
				if err != nil {
					t.Errorf("Lower(%q) error: %v", src, err)
					return
				}
				if want := fmt.Sprintf("array<f32, %d>", 2*n); !strings.Contains(out, want) {
					t.Errorf("Lower(%q) = %q, want it to contain %q", src, out, want)
					return
				}
			}
		})
	}
	wg.Wait()
}

func TestLowerCanceled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := naga.Lower(ctx, "fn canceled() {}"); !errors.Is(err, context.Canceled) {
		t.Errorf("Lower(canceled ctx) error = %v, want context.Canceled", err)
	}
	// A deadline that passes during a call (naga takes about 0.3 s over
	// 800 locals in one function): the call stops promptly, the instance
	// is dropped, and nothing is cached.
	var b strings.Builder
	b.WriteString("fn f() -> f32 {\n")
	for i := range 800 {
		fmt.Fprintf(&b, "  var v%d: f32 = 1.0 + 2.0 * 3.0;\n", i)
	}
	b.WriteString("  return 0;\n}")
	big := b.String()
	if err := naga.Start(testCtx(t)); err != nil {
		t.Fatal(err)
	}
	for i := range 2 {
		_, dropped := naga.PoolStats()
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Millisecond)
		start := time.Now()
		_, err := naga.Lower(ctx, big)
		cancel()
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("Lower(big, 5ms deadline) #%d error = %v, want context.DeadlineExceeded", i, err)
		}
		if d := time.Since(start); d > 100*time.Millisecond {
			t.Errorf("Lower(big, 5ms deadline) took %v, want it stopped promptly", d)
		}
		if _, d := naga.PoolStats(); d != dropped+1 {
			t.Errorf("Lower(big, 5ms deadline) dropped %d instances, want 1", d-dropped)
		}
	}
	if out, err := naga.Lower(testCtx(t), "fn after_deadline() -> f32 { return 2; }"); err != nil || !strings.Contains(out, "2f") {
		t.Errorf("Lower after a deadline error = %q, %v, want it to work", out, err)
	}
}

func TestLowerCached(t *testing.T) {
	ctx := testCtx(t)
	const src = "fn cached() -> u32 { return 7; }"
	first, err := naga.Lower(ctx, src)
	if err != nil {
		t.Fatal(err)
	}
	made, _ := naga.PoolStats()
	again, err := naga.Lower(ctx, src)
	if err != nil || again != first {
		t.Errorf("Lower(repeat) = %q, %v, want %q", again, err, first)
	}
	if avg := testing.AllocsPerRun(100, func() { naga.Lower(ctx, src) }); avg > 2 {
		t.Errorf("Lower(cached) allocates %v times, want <= 2", avg)
	}
	if m, _ := naga.PoolStats(); m != made {
		t.Errorf("a cached Lower made %d instances", m-made)
	}
}

func TestTrapDropsInstance(t *testing.T) {
	ctx := testCtx(t)
	for _, kind := range []string{"unreachable", "throw", "out-of-bounds"} {
		t.Run(kind, func(t *testing.T) {
			_, dropped := naga.PoolStats()
			err := naga.Trap(ctx, kind)
			if err == nil {
				t.Fatalf("Trap(%s) = nil, want an error", kind)
			}
			t.Logf("Trap(%s): %v", kind, strings.SplitN(err.Error(), "\n", 2)[0])
			if _, d := naga.PoolStats(); d != dropped+1 {
				t.Errorf("dropped %d instances, want 1", d-dropped)
			}
			src := fmt.Sprintf("fn after_%s() -> f32 { return 1; }", strings.ReplaceAll(kind, "-", "_"))
			if out, err := naga.Lower(ctx, src); err != nil || !strings.Contains(out, "1f") {
				t.Errorf("Lower after a trap = %q, %v, want it to work", out, err)
			}
		})
	}
}

func TestImports(t *testing.T) {
	keys, err := naga.ImportKeys(testCtx(t))
	if err != nil {
		t.Fatal(err)
	}
	// The imports the WGSL path calls must be implemented with the
	// wasm's signatures; the rest may panic.
	for _, k := range []string{"Error", "__wbindgen_throw", "__wbindgen_is_undefined", "__wbindgen_init_externref_table", "String", "__wbindgen_string_get", "__wbindgen_debug_string"} {
		if ok, found := keys[k]; !found || !ok {
			t.Errorf("import %s: found %v, implemented %v; want both", k, found, ok)
		}
	}
	t.Logf("imports: %v", keys)
}

// TestPathological feeds naga sources nested far beyond its limits. naga
// refuses some (a recursion or nesting limit); on others its own stack
// overflows, which in this wasm (stack first in memory) is an
// out-of-bounds trap: a sandbox error. Either way Lower returns an error
// and the next call works. The test runs in a child process: a regression
// that brought the process down fails this test instead of the whole run.
func TestPathological(t *testing.T) {
	if os.Getenv("NAGA_TEST_CHILD") == "pathological" {
		r := strings.Repeat
		for _, tc := range []struct{ name, src string }{
			{"parens", "fn f() -> i32 { return " + r("(", 5000) + "1" + r(")", 5000) + "; }"},
			{"calls", "fn g(x: i32) -> i32 { return x; }\nfn f() -> i32 { return " + r("g(", 3000) + "1" + r(")", 3000) + "; }"},
			{"blocks", "fn f() {" + r("{", 5000) + r("}", 5000) + "}"},
			{"binary operators", "fn f() -> i32 { return 1" + r(" + 1", 20000) + "; }"},
			{"negations", "fn f() -> bool { return " + r("!", 20000) + "true; }"},
			{"swizzles", "fn f() { var v: vec4<f32>; let x = v" + r(".xyzw", 5000) + "; }"},
		} {
			_, err := naga.Lower(testCtx(t), tc.src)
			if err == nil {
				t.Errorf("Lower(%s) = nil error, want an error", tc.name)
				continue
			}
			fmt.Printf("CHILD: %s: %v\n", tc.name, strings.SplitN(err.Error(), "\n", 2)[0])
			if out, err := naga.Lower(testCtx(t), "fn after() -> f32 { return 1; }"); err != nil || !strings.Contains(out, "1f") {
				t.Fatalf("Lower after Lower(%s) = %q, %v, want it to work", tc.name, out, err)
			}
		}
		return
	}
	cmd := exec.CommandContext(testCtx(t), os.Args[0], "-test.run=^TestPathological$", "-test.v")
	cmd.Env = append(os.Environ(), "NAGA_TEST_CHILD=pathological")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("child: %v\n%s", err, out)
	}
	n := 0
	for _, l := range strings.Split(string(out), "\n") {
		if strings.HasPrefix(l, "CHILD: ") {
			t.Log(l)
			n++
		}
	}
	if n != 6 {
		t.Fatalf("child reported %d errors, want 6:\n%s", n, out)
	}
}

func TestVersionString(t *testing.T) {
	if v := naga.Version(); !strings.HasPrefix(v, "naga 30.") || !strings.Contains(v, "naga-wasm 30.1.0") {
		t.Errorf("Version() = %q, want naga 30.x (naga-wasm 30.1.0)", v)
	}
}
