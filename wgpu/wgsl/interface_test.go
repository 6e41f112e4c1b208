package wgsl_test

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/streamgate/streamgate/wgpu/wgsl"
)

// names returns the names of bs, comma-separated.
func names(bs []wgsl.Binding) string {
	var s []string
	for _, b := range bs {
		s = append(s, b.Name)
	}
	return strings.Join(s, ",")
}

func TestEntryPointBindings(t *testing.T) {
	const decls = `
@group(0) @binding(0) var<storage, read_write> a: array<u32>;
@group(0) @binding(1) var<storage> b: array<u32>;
@group(1) @binding(0) var<uniform> c: vec4u;
struct S { a: u32, b: u32 }
`
	tests := []struct {
		name string
		src  string
		want map[string]string // entry point -> its bindings' names, comma-separated
		all  string            // Module.Bindings' names
		lim  int               // MaxBindings; 0: 3
	}{
		{"disjoint", decls + `
@compute @workgroup_size(1) fn x() { a[0] = 1u; }
@compute @workgroup_size(1) fn y() { _ = b[0] + c.x; }`,
			map[string]string{"x": "a", "y": "b,c"}, "a,b,c", 0},
		{"sorted-by-slot", decls + `
@compute @workgroup_size(1) fn x() { _ = c.x; _ = b[0]; a[0] = 1u; }`,
			map[string]string{"x": "a,b,c"}, "a,b,c", 0},
		{"transitive", decls + `
fn leaf() -> u32 { return c.y; }
fn mid() -> u32 { return b[0] + leaf(); }
@compute @workgroup_size(1) fn x() { a[0] = mid(); }
@compute @workgroup_size(1) fn y() { _ = leaf(); }`,
			map[string]string{"x": "a,b,c", "y": "c"}, "a,b,c", 0},
		{"helper-declared-after", decls + `
@compute @workgroup_size(1) fn x() { h(); }
fn h() { a[0] = 0u; }`,
			map[string]string{"x": "a"}, "a,b,c", 0},
		{"param-shadows", decls + `
fn h(a: u32) -> u32 { return a; }
@compute @workgroup_size(1) fn x(@builtin(local_invocation_index) b: u32) { _ = h(b); }`,
			map[string]string{"x": ""}, "a,b,c", 0},
		{"let-var-shadow", decls + `
@compute @workgroup_size(1) fn x() { let a = 1u; var b = a; const c = 2u; b = c; }`,
			map[string]string{"x": ""}, "a,b,c", 0},
		{"shadow-after-use", decls + `
@compute @workgroup_size(1) fn x() { let a = a[0]; _ = a; }`,
			map[string]string{"x": "a"}, "a,b,c", 0},
		{"member-named-like-global", decls + `
@compute @workgroup_size(1) fn x() { var s: S; s.a = 1u; s.b = s.a; let v = vec4u(); _ = v.x; }`,
			map[string]string{"x": ""}, "a,b,c", 0},
		{"for-loop-var", decls + `
@compute @workgroup_size(1) fn x() { for (var a = 0u; a < 4u; a++) { _ = a; } }
@compute @workgroup_size(1) fn y() { for (var i = 0u; i < 4u; i++) { } a[0] = 0u; }`,
			map[string]string{"x": "", "y": "a"}, "a,b,c", 0},
		{"for-loop-var-ends", decls + `
@compute @workgroup_size(1) fn x() { for (var a = 0u; a < 4u; a++) { } a[0] = 0u; }`,
			map[string]string{"x": "a"}, "a,b,c", 0},
		{"nested-block-shadow-ends", decls + `
@compute @workgroup_size(1) fn x() { { let b = 1u; { _ = b; } } _ = b[0]; }
@compute @workgroup_size(1) fn y() { { let b = 1u; { _ = b; } } }`,
			map[string]string{"x": "b", "y": ""}, "a,b,c", 0},
		{"unused-helper", decls + `
fn unused() { a[0] = b[0]; }
@compute @workgroup_size(1) fn x() { _ = c.x; }`,
			map[string]string{"x": "c"}, "a,b,c", 0},
		{"shared-slot-different-entry-points", `
@group(0) @binding(0) var<storage, read_write> p: array<u32>;
@group(0) @binding(0) var<storage> q: array<f32>;
@compute @workgroup_size(1) fn x() { p[0] = 1u; }
@compute @workgroup_size(1) fn y() { _ = q[0]; }`,
			map[string]string{"x": "p", "y": "q"}, "p,q", 0},
		{"vertex-fragment", decls + `
@vertex fn vs() -> @builtin(position) vec4f { return vec4f(f32(c.x)); }
@fragment fn fs() -> @location(0) vec4f { return vec4f(f32(b[0])); }`,
			map[string]string{"vs": "c", "fs": "b"}, "a,b,c", 0},
		{"max-bindings-per-entry-point", `
@group(0) @binding(0) var<storage> p: u32;
@group(0) @binding(1) var<storage> q: u32;
@group(0) @binding(2) var<storage> r: u32;
@compute @workgroup_size(1) fn x() { _ = p + q; }
@compute @workgroup_size(1) fn y() { _ = q + r; }`,
			map[string]string{"x": "p,q", "y": "q,r"}, "p,q,r", 2},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			lim := wgsl.Limits{MaxBindings: 3}
			if tc.lim != 0 {
				lim.MaxBindings = tc.lim
			}
			m, err := wgsl.Parse(tc.src, lim)
			if err != nil {
				t.Fatalf("Parse(...) = %v, want no error", err)
			}
			if got := names(m.Bindings); got != tc.all {
				t.Errorf("Parse(...).Bindings = %s, want %s", got, tc.all)
			}
			if len(m.EntryPoints) != len(tc.want) {
				t.Fatalf("Parse(...).EntryPoints = %+v, want %d", m.EntryPoints, len(tc.want))
			}
			for _, ep := range m.EntryPoints {
				want, ok := tc.want[ep.Name]
				if !ok {
					t.Errorf("Parse(...): unexpected entry point %s", ep.Name)
					continue
				}
				if got := names(ep.Bindings); got != want {
					t.Errorf("Parse(...) entry point %s Bindings = %s, want %s", ep.Name, got, want)
				}
			}
		})
	}
}

// TestEntryPointBindingsValues checks that an entry point's bindings are the
// module's, field for field.
func TestEntryPointBindingsValues(t *testing.T) {
	src := `
struct P { n: u32, data: array<vec4f> }
@group(2) @binding(3) var<storage, read_write> p: P;
@group(0) @binding(1) var<uniform> u: vec4<f32>;
@compute @workgroup_size(8) fn main() { p.data[p.n] = u; }`
	m, err := wgsl.Parse(src, wgsl.Limits{})
	if err != nil {
		t.Fatalf("Parse(...) = %v, want no error", err)
	}
	want := []wgsl.Binding{
		{Group: 0, Index: 1, Name: "u", Kind: wgsl.Uniform, Type: "vec4<f32>", MinSize: 16},
		{Group: 2, Index: 3, Name: "p", Kind: wgsl.StorageReadWrite, Type: "P", MinSize: 32},
	}
	if got := m.EntryPoints[0].Bindings; !reflect.DeepEqual(got, want) {
		t.Errorf("Parse(...).EntryPoints[0].Bindings = %+v, want %+v", got, want)
	}
	if !reflect.DeepEqual(m.Bindings, want) {
		t.Errorf("Parse(...).Bindings = %+v, want %+v", m.Bindings, want)
	}
}

func TestEntryPointBindingsErrors(t *testing.T) {
	const shared = `
@group(0) @binding(0) var<storage, read_write> p: array<u32>;
@group(0) @binding(0) var<storage> q: array<f32>;
`
	tests := []struct {
		name string
		src  string
		lim  wgsl.Limits
		want string
		line int
	}{
		{"shared-slot-same-entry-point", shared + `@compute @workgroup_size(1) fn x() { p[0] = u32(q[0]); }`, wgsl.Limits{},
			"binding 0 (q): entry point x uses both p and q, which share @group(0) @binding(0)", 3},
		{"shared-slot-through-helpers", shared + `fn hp() { p[0] = 1u; }
fn hq() -> f32 { return q[0]; }
@compute @workgroup_size(1) fn ok() { hp(); }
@compute @workgroup_size(1) fn bad() { hp(); _ = hq(); }`, wgsl.Limits{},
			"binding 0 (q): entry point bad uses both p and q, which share @group(0) @binding(0)", 3},
		{"too-many-for-one-entry-point", `
@group(0) @binding(0) var<storage> p: u32;
@group(0) @binding(1) var<storage> q: u32;
@group(0) @binding(2) var<storage> r: u32;
@compute @workgroup_size(1) fn x() { _ = p; }
fn h() -> u32 { return q + r; }
@compute @workgroup_size(1) fn y() { _ = p + h(); }`, wgsl.Limits{MaxBindings: 2},
			"entry point y uses 3 buffer bindings, more than the limit of 2", 4},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m, err := wgsl.Parse(tc.src, tc.lim)
			var e *wgsl.Error
			if !errors.As(err, &e) {
				t.Fatalf("Parse(...) = %+v, %v, want an *Error containing %q", m, err, tc.want)
			}
			if !strings.Contains(e.Msg, tc.want) || e.Line != tc.line {
				t.Errorf("Parse(...) = %v, want %q on line %d", err, tc.want, tc.line)
			}
		})
	}
}

// TestEntryPointBindingsWork checks that many entry points calling one
// large helper are refused quickly rather than walked for each.
func TestEntryPointBindingsWork(t *testing.T) {
	var b strings.Builder
	b.WriteString("@group(0) @binding(0) var<storage> p: u32;\nfn h() {")
	for i := 0; i < 10000; i++ {
		b.WriteString(" l" + itoa(i) + "();")
	}
	b.WriteString(" _ = p; }\n")
	for i := 0; i < 10000; i++ {
		b.WriteString("fn l" + itoa(i) + "() {}\n")
	}
	src := b.String()
	for _, tc := range []struct {
		name string
		eps  int
		ok   bool
	}{{"eps=10", 10, true}, {"eps=300", 300, false}} {
		t.Run(tc.name, func(t *testing.T) {
			var b strings.Builder
			b.WriteString(src)
			for i := 0; i < tc.eps; i++ {
				b.WriteString("@compute @workgroup_size(1) fn e" + itoa(i) + "() { h(); }\n")
			}
			m, err := wgsl.Parse(b.String(), wgsl.Limits{MaxFunctionTokens: 1 << 20, MaxModuleTokens: 1 << 20}) // the work cap, not the body or module limits
			switch {
			case tc.ok && err != nil:
				t.Fatalf("Parse(%d entry points x 10000 calls) = %v, want no error", tc.eps, err)
			case tc.ok:
				if got := names(m.EntryPoints[tc.eps-1].Bindings); got != "p" {
					t.Errorf("Parse(...) last entry point Bindings = %s, want p", got)
				}
			case err == nil || !strings.Contains(err.Error(), "the limit of this front-end"):
				t.Fatalf("Parse(%d entry points x 10000 calls) = %v, want the work refused", tc.eps, err)
			}
		})
	}
}
