//go:build !(js && wasm)

package lower

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/streamgate/streamgate/internal/low/testhook"
	"github.com/streamgate/streamgate/wgpu/wgsl"
)

// lineOf is the 1-based line of source holding the first occurrence of
// sub, and its column.
func lineOf(t *testing.T, source, sub string) (int, int) {
	t.Helper()
	i := strings.Index(source, sub)
	if i < 0 {
		t.Fatalf("%q not in\n%s", sub, source)
	}
	return wgsl.Position(source, i)
}

// TestLowerOverrides: Lower binds the overrides' values in the tree (by
// name and by @id, defaults otherwise), the front-end's results carry the
// values, and the driver's source holds them; the bad values are errors
// naming the override or the constant.
func TestLowerOverrides(t *testing.T) {
	const src = `// two overrides
@id(7) override WG: u32 = 64u;
override scale = 1.5;
override flip: bool;
override neg = -3;
@group(0) @binding(0) var<storage, read_write> out: array<f32>;
var<workgroup> tile: array<f32, WG>;
@compute @workgroup_size(WG) fn main(@builtin(local_invocation_index) i: u32) {
    tile[i] = scale * f32(neg);
    if flip { out[i] = tile[i]; }
}
`
	ctx := context.Background()
	lm, err := Lower(ctx, src, map[string]float64{"7": 32, "flip": 1, "neg": -5}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got := lm.Front.EntryPoints[0].WorkgroupSize; got != [3]uint32{32, 1, 1} {
		t.Errorf("workgroup size %v, want [32 1 1] (WG set by @id 7)", got)
	}
	// scale * f32(neg) is folded: 1.5 * -5.
	for _, want := range []string{"32u", "-7.5", "-5", "true"} {
		if !strings.Contains(lm.Source, want) {
			t.Errorf("the driver's source lacks %q:\n%s", want, lm.Source)
		}
	}
	if strings.Contains(lm.Source, "override") {
		t.Errorf("the driver's source still has an override:\n%s", lm.Source)
	}
	if lm.LoweredNames[0] != "main" {
		t.Errorf("LoweredNames = %v", lm.LoweredNames)
	}
	for _, tc := range []struct {
		constants map[string]float64
		want      string
	}{
		{map[string]float64{}, "override flip has no default"},
		{map[string]float64{"flip": 1, "WG": 8, "7": 8}, "override WG: constants set it twice"},
		{map[string]float64{"flip": 1, "nosuch": 1}, `constant "nosuch" names no override of the module (it has WG, scale, flip, neg)`},
		{map[string]float64{"flip": 1, "WG": -1}, `override WG: constant "WG": -1 is out of u32's range`},
		{map[string]float64{"flip": 1, "neg": 0.5}, `override neg: constant "neg": 0.5 is not a whole number, which i32 needs`},
		{map[string]float64{"flip": 1, "scale": 1e39}, `override scale: constant "scale": 1e+39 is out of f32's range`},
	} {
		_, err := Lower(ctx, src, tc.constants, Options{})
		var le *Error
		if !errors.As(err, &le) || le.Kind != KindInvalid || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Lower(%v) = %v, want a KindInvalid error containing %q", tc.constants, err, tc.want)
		}
	}
	if _, err := Lower(ctx, "fn f() {}", map[string]float64{"x": 1}, Options{}); err == nil || !strings.Contains(err.Error(), `constant "x": the module declares no override`) {
		t.Errorf("a constant for a module without overrides: %v", err)
	}
}

// TestLowerPositions: an error found after the overrides were bound (so
// in the printed tree, without the user's comments and layout) is reported
// at the user's line and column: naga's, and the front-end's second
// reading.
func TestLowerPositions(t *testing.T) {
	const src = `override n: u32 = 4u;


/* a comment
   of three lines */ @compute @workgroup_size(1)
fn main() {
        // naga refuses an f32 added to a u32:
        let x = n +   1.5f;
}
`
	_, err := Lower(context.Background(), src, map[string]float64{"n": 2}, Options{})
	var le *Error
	if !errors.As(err, &le) || le.Kind != KindInvalid {
		t.Fatalf("Lower = %v, want naga's validation error", err)
	}
	line, _ := lineOf(t, src, "let x")
	if !strings.HasPrefix(le.Msg, "wgsl:"+strconv.Itoa(line)+":") {
		t.Errorf("naga's error %q, want it at the user's line %d", le.Msg, line)
	}

	// The array count is n's value: too large for the private memory
	// limit only once bound, and reported at the user's array.
	const big = `override n: u32 = 4u;

// the array
var<private> a: array<f32, n>;
@compute @workgroup_size(1) fn main() { a[0] = 1.0; }
`
	_, err = Lower(context.Background(), big, map[string]float64{"n": 1 << 26}, Options{})
	var we *wgsl.Error
	if !errors.As(err, &we) {
		t.Fatalf("Lower(big n) = %v, want the front-end's limit error", err)
	}
	if wl, _ := lineOf(t, big, "var<private>"); we.Line != wl {
		t.Errorf("front-end error at line %d, want the user's line %d: %v", we.Line, wl, we)
	}
}

// TestMap: a position in the driver's source maps back to the user's
// declaration of the same name, an entry point renamed by naga to the
// user's name, and a polyfill the lowering added to nothing.
func TestMap(t *testing.T) {
	const src = `// comments the driver never sees
@group(0) @binding(0) var<storage, read_write> out: array<u32>;

fn helper(v: u32) -> u32 {

    var acc = v;
    acc += dot4U8Packed(v, v);
    return acc;
}

@compute @workgroup_size(1)
fn read() {
    let k = helper(3u);
    out[0] = k;
}
`
	lm, err := Lower(context.Background(), src, nil, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if lm.LoweredNames[0] == "read" {
		t.Fatalf("naga kept the name read; LoweredNames = %v", lm.LoweredNames)
	}
	for _, tc := range []struct{ driver, user, what string }{
		{"var acc", "var acc", "var acc"},
		{"fn helper", "fn helper", "fn helper"},
		{"fn " + lm.LoweredNames[0], "fn read", "fn read"},
		{"out[0", "fn read", "fn read"}, // naga's own locals: near the function
		{"var<storage", "var<storage", "var out"},
	} {
		dl, dc := lineOf(t, lm.Source, tc.driver)
		ul, uc, what, ok := lm.Map.User(dl, dc)
		wl, wc := lineOf(t, src, tc.user)
		if !ok || ul != wl || uc != wc || what != tc.what {
			t.Errorf("Map.User(%d:%d, at %q) = %d:%d %q %v, want %d:%d %q", dl, dc, tc.driver, ul, uc, what, ok, wl, wc, tc.what)
		}
	}
	// The polyfill of dot4U8Packed is the lowering's: no user position.
	i := strings.Index(lm.Source, "fn dot4U8Packed")
	if i < 0 {
		t.Fatalf("no polyfill in\n%s", lm.Source)
	}
	pl, pc := wgsl.Position(lm.Source, i+len("fn dot4U8Packed("))
	if ul, uc, what, ok := lm.Map.User(pl, pc); ok {
		t.Errorf("Map.User(inside the polyfill) = %d:%d %q, want no counterpart", ul, uc, what)
	}

	dl, dc := lineOf(t, lm.Source, "acc = (")
	msg := "Shader validation error:\n  ┌─ wgsl:" + strconv.Itoa(dl) + ":" + strconv.Itoa(dc) + "\n  │\n"
	wl, wc := lineOf(t, src, "var acc")
	want := "; in the user's source near wgsl:" + strconv.Itoa(wl) + ":" + strconv.Itoa(wc) + " (var acc)"
	if got := lm.Map.Annotate(msg); !strings.HasSuffix(got, want) || !strings.HasPrefix(got, "Shader validation error:") {
		t.Errorf("Annotate = %q, want it to end in %q", got, want)
	}
	if got := lm.Map.Annotate("no position here"); got != "no position here" {
		t.Errorf("Annotate(no position) = %q", got)
	}
	var none *Map
	if got := none.Annotate(msg); got != msg {
		t.Errorf("nil Map's Annotate changed the message: %q", got)
	}
}

// TestLowerErrorKinds: the front-end's refusals come back as *wgsl.Error,
// the driver's as *UnsupportedError at the user's position, a cancelled
// context as its error.
func TestLowerErrorKinds(t *testing.T) {
	ctx := context.Background()
	var we *wgsl.Error
	if _, err := Lower(ctx, "fn f( {", nil, Options{}); !errors.As(err, &we) {
		t.Errorf("syntax error: %T %v", err, err)
	}
	const sub = "// subgroups\n\n@compute @workgroup_size(1) fn main(@builtin(subgroup_size) s: u32) {}\n"
	_, err := Lower(ctx, sub, nil, Options{})
	var ue *UnsupportedError
	if !errors.As(err, &ue) {
		t.Fatalf("subgroup built-in: %T %v", err, err)
	}
	if l, c := lineOf(t, sub, "subgroup_size"); ue.Pos != "wgsl:"+strconv.Itoa(l)+":"+strconv.Itoa(c) {
		t.Errorf("UnsupportedError at %s, want the user's wgsl:%d:%d", ue.Pos, l, c)
	}
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := Lower(cctx, "@compute @workgroup_size(1) fn cancelled_once() {}", nil, Options{}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
}

// TestLowerReadsOnce: a first lowering of a source never seen reads the
// user's source once and naga's output once, overrides bound or not.
func TestLowerReadsOnce(t *testing.T) {
	const src = `override scale: f32 = 1.0;
@group(0) @binding(0) var<storage, read_write> out: array<f32>;
@compute @workgroup_size(64) fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    out[id.x] = out[id.x] * scale; // reads-once
}
`
	var reads []string
	hook := func(s string) { reads = append(reads, s) }
	testhook.WGSLTokenize.Store(&hook)
	defer testhook.WGSLTokenize.Store(nil)
	for i, constants := range []map[string]float64{nil, {"scale": 3}} {
		reads = nil
		unique := src + "// round " + strconv.Itoa(i) + "\n"
		lm, err := Lower(context.Background(), unique, constants, Options{})
		if err != nil {
			t.Fatal(err)
		}
		users, nagas := 0, 0
		for _, r := range reads {
			switch {
			case r == unique:
				users++
			case strings.Contains(r, "fn main") && !strings.Contains(r, "reads-once"):
				nagas++
			default:
				t.Errorf("read another source:\n%s", r)
			}
		}
		if users != 1 || nagas != 1 {
			t.Errorf("constants %v: the user's source read %d times, naga's output %d times; want 1 and 1", constants, users, nagas)
		}
		if constants != nil && !strings.Contains(lm.Source, "3f") && !strings.Contains(lm.Source, "3.0") {
			t.Errorf("scale's value not in the driver's source:\n%s", lm.Source)
		}
	}
}

// TestGoldenOverrides runs BindOverrides on each testdata/overrides/*.wgsl
// (its first line: "// constants: NAME=VALUE ...") and compares the printed
// tree, or the error, with the .golden file beside it; -update rewrites
// them. The output reads again as WGSL with no override left.
func TestGoldenOverrides(t *testing.T) {
	files, err := filepath.Glob("testdata/overrides/*.wgsl")
	if err != nil || len(files) < 5 {
		t.Fatalf("golden inputs: %d, %v", len(files), err)
	}
	for _, path := range files {
		t.Run(filepath.Base(path), func(t *testing.T) {
			b, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			in := string(b)
			first, _, _ := strings.Cut(in, "\n")
			spec, ok := strings.CutPrefix(first, "// constants:")
			if !ok {
				t.Fatalf("first line %q is not // constants: ...", first)
			}
			constants := map[string]float64{}
			for _, kv := range strings.Fields(spec) {
				k, v, _ := strings.Cut(kv, "=")
				f, err := strconv.ParseFloat(v, 64)
				if err != nil {
					t.Fatal(err)
				}
				constants[k] = f
			}
			m, err := wgsl.Parse(in, wgsl.Limits{})
			if err != nil {
				t.Fatal(err)
			}
			var got string
			if _, err := BindOverrides(m, constants); err != nil {
				got = "error: " + err.Error() + "\n"
			} else {
				got = wgsl.Sprint(m.File)
				if strings.Contains(got, "override") {
					t.Errorf("an override is left:\n%s", got)
				}
				if _, err := wgsl.Parse(got, wgsl.Limits{}); err != nil {
					t.Errorf("the output does not read: %v\n%s", err, got)
				}
			}
			checkGolden(t, "BindOverrides", path, got)
		})
	}
}

// TestRestoreMap: a map exported and restored maps as the original does,
// and anchors that do not fit the sources are refused.
func TestRestoreMap(t *testing.T) {
	const src = `@group(0) @binding(0) var<storage, read_write> out: array<u32>;
fn helper(v: u32) -> u32 { var acc = v; acc += 1u; return acc; }
@compute @workgroup_size(1)
fn read() { out[0] = helper(3u); }
`
	lm, err := Lower(context.Background(), src, nil, Options{})
	if err != nil {
		t.Fatal(err)
	}
	as := lm.Map.Anchors()
	if len(as) < 3 {
		t.Fatalf("%d anchors: %+v", len(as), as)
	}
	m, err := RestoreMap(src, lm.Source, as)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(m, lm.Map) {
		t.Fatalf("restored map %+v, want %+v", m, lm.Map)
	}
	bad := func(f func(a []Anchor)) []Anchor {
		b := slices.Clone(as)
		f(b)
		return b
	}
	for name, b := range map[string][]Anchor{
		"driver offset past the end": bad(func(a []Anchor) { a[len(a)-1].Driver = len(lm.Source) + 1 }),
		"negative driver offset":     bad(func(a []Anchor) { a[0].Driver = -1 }),
		"user offset past the end":   bad(func(a []Anchor) { a[0].User = len(src) + 1 }),
		"out of order":               bad(func(a []Anchor) { a[0], a[len(a)-1] = a[len(a)-1], a[0] }),
	} {
		if _, err := RestoreMap(src, lm.Source, b); err == nil {
			t.Errorf("%s: RestoreMap took it", name)
		}
	}
	if _, err := RestoreMap("é", "x", []Anchor{{Driver: 0, User: 1}}); err == nil {
		t.Error("a user offset inside a character: RestoreMap took it")
	}
}
