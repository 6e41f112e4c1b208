package naga

import (
	"context"
	"fmt"
	"math"
	"regexp"
	"slices"
	"strconv"
	"unicode/utf16"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"
)

// The host side of wasm-bindgen's glue (the imports of module
// "./naga_bg.js", written in JavaScript in the npm package's
// dist/wasm/naga.js). A JavaScript value crosses the boundary as an
// externref, which here is an opaque handle into the calling instance's
// [jsValues]; handle 0 (a null externref) is undefined.
//
// Only what the WGSL path needs is modelled: strings, numbers, booleans and
// Error objects. The imports that walk JavaScript objects (options
// dictionaries, iterators, Uint8Array) run only for options that Lower
// never passes; they panic, which wazero turns into an error of the call,
// so the instance is dropped.

// glueModule is the module name the wasm imports from.
const glueModule = "./naga_bg.js"

// jsValues holds the JavaScript values that exist during one call of an
// instance. It is owned by that instance's caller, one goroutine at a
// time. Handles are never reused, so a stale one reads as undefined.
type jsValues struct {
	malloc  api.Function // __wbindgen_malloc, for strings the host passes in; separate from the caller's own
	vals    map[uint64]any
	next    uint64 // last handle given out
	lastErr string // message of the last Error created, or of __wbindgen_throw
	errors  int    // number of Errors created since reset
}

// jsError is a JavaScript Error object.
type jsError struct{ msg string }

// throwError is the panic value of __wbindgen_throw: Rust code threw a
// JavaScript Error, which ends the call.
type throwError struct{ msg string }

func (e *throwError) Error() string { return "naga: wasm threw: " + e.msg }

// reset forgets the values of the previous call.
func (v *jsValues) reset() {
	clear(v.vals)
	v.lastErr = ""
	v.errors = 0
}

func (v *jsValues) put(x any) uint64 {
	if v.vals == nil {
		v.vals = make(map[uint64]any)
	}
	v.next++
	v.vals[v.next] = x
	return v.next
}

// get returns the value of handle h; nil is undefined.
func (v *jsValues) get(h uint64) any { return v.vals[h] }

type valuesKey struct{}

// values returns the jsValues of the call that ctx belongs to.
func values(ctx context.Context) *jsValues {
	v, _ := ctx.Value(valuesKey{}).(*jsValues)
	if v == nil {
		panic("naga: host function called outside an instance call")
	}
	return v
}

func readString(m api.Module, ptr, n uint64) string {
	b, ok := m.Memory().Read(uint32(ptr), uint32(n))
	if !ok {
		panic(fmt.Sprintf("naga: string at %#x+%d is outside memory", ptr, n))
	}
	return string(b)
}

// passString copies s into memory the wasm allocates, as the glue's
// passStringToWasm0 does, and stores (ptr, len) at ret as two i32s.
func passString(ctx context.Context, m api.Module, ret uint64, s string) {
	var ptr uint64
	if s != "" {
		res, err := values(ctx).malloc.Call(ctx, uint64(len(s)), 1)
		if err != nil {
			panic(err)
		}
		ptr = res[0]
		if !m.Memory().WriteString(uint32(ptr), s) {
			panic("naga: malloc returned memory outside memory")
		}
	}
	storeI32(m, ret+4, uint32(len(s)))
	storeI32(m, ret, uint32(ptr))
}

func storeI32(m api.Module, at uint64, x uint32) {
	if !m.Memory().WriteUint32Le(uint32(at), x) {
		panic(fmt.Sprintf("naga: store outside memory at %#x", at))
	}
}

func boolI32(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}

// jsString is JavaScript's String(x).
func jsString(x any) string {
	switch x := x.(type) {
	case nil:
		return "undefined"
	case string:
		return x
	case float64:
		return strconv.FormatFloat(x, 'g', -1, 64)
	case bool:
		return strconv.FormatBool(x)
	case *jsError:
		return "Error: " + x.msg
	}
	return fmt.Sprint(x)
}

// looseEq is JavaScript's ==, for the values modelled here.
func looseEq(a, b any) bool {
	switch a := a.(type) {
	case nil:
		return b == nil
	case *jsError:
		return a == b
	case string:
		switch b := b.(type) {
		case string:
			return a == b
		case float64:
			f, err := strconv.ParseFloat(a, 64)
			return err == nil && f == b
		}
	case float64:
		switch b := b.(type) {
		case float64:
			return a == b
		case string, bool:
			return looseEq(b, a)
		}
	case bool:
		return looseEq(float64(boolI32(a)), b)
	}
	return false
}

// hostFunc is one import: its signature and its body.
type hostFunc struct {
	params, results []api.ValueType
	fn              api.GoModuleFunc
}

const (
	i32 = api.ValueTypeI32
	f64 = api.ValueTypeF64
	ref = api.ValueTypeExternref
)

func sig(params ...api.ValueType) []api.ValueType { return params }

// hostFuncs maps an import's name, without wasm-bindgen's "__wbg_" prefix
// and hash suffix, to its implementation.
var hostFuncs = map[string]hostFunc{
	"Error": {sig(i32, i32), sig(ref), func(ctx context.Context, m api.Module, st []uint64) {
		v := values(ctx)
		msg := readString(m, st[0], st[1])
		v.lastErr = msg
		v.errors++
		st[0] = v.put(&jsError{msg})
	}},
	"Number": {sig(ref), sig(f64), func(ctx context.Context, m api.Module, st []uint64) {
		f := math.NaN()
		switch x := values(ctx).get(st[0]).(type) {
		case float64:
			f = x
		case bool:
			f = float64(boolI32(x))
		case string:
			if g, err := strconv.ParseFloat(x, 64); err == nil {
				f = g
			}
		}
		st[0] = api.EncodeF64(f)
	}},
	"String": {sig(i32, ref), nil, func(ctx context.Context, m api.Module, st []uint64) {
		passString(ctx, m, st[0], jsString(values(ctx).get(st[1])))
	}},
	"__wbindgen_boolean_get": {sig(ref), sig(i32), func(ctx context.Context, m api.Module, st []uint64) {
		if b, ok := values(ctx).get(st[0]).(bool); ok {
			st[0] = boolI32(b)
		} else {
			st[0] = 0xFFFFFF
		}
	}},
	"__wbindgen_debug_string": {sig(i32, ref), nil, func(ctx context.Context, m api.Module, st []uint64) {
		x := values(ctx).get(st[1])
		s := jsString(x)
		if _, ok := x.(string); ok {
			s = strconv.Quote(s)
		}
		passString(ctx, m, st[0], s)
	}},
	"__wbindgen_in": {sig(ref, ref), sig(i32), func(ctx context.Context, m api.Module, st []uint64) {
		st[0] = 0 // no modelled value has properties
	}},
	"__wbindgen_is_function": {sig(ref), sig(i32), func(ctx context.Context, m api.Module, st []uint64) {
		st[0] = 0
	}},
	"__wbindgen_is_object": {sig(ref), sig(i32), func(ctx context.Context, m api.Module, st []uint64) {
		_, ok := values(ctx).get(st[0]).(*jsError)
		st[0] = boolI32(ok)
	}},
	"__wbindgen_is_string": {sig(ref), sig(i32), func(ctx context.Context, m api.Module, st []uint64) {
		_, ok := values(ctx).get(st[0]).(string)
		st[0] = boolI32(ok)
	}},
	"__wbindgen_is_undefined": {sig(ref), sig(i32), func(ctx context.Context, m api.Module, st []uint64) {
		st[0] = boolI32(values(ctx).get(st[0]) == nil)
	}},
	"__wbindgen_jsval_loose_eq": {sig(ref, ref), sig(i32), func(ctx context.Context, m api.Module, st []uint64) {
		v := values(ctx)
		st[0] = boolI32(st[0] == st[1] || looseEq(v.get(st[0]), v.get(st[1])))
	}},
	"__wbindgen_number_get": {sig(i32, ref), nil, func(ctx context.Context, m api.Module, st []uint64) {
		f, ok := values(ctx).get(st[1]).(float64)
		if !m.Memory().WriteFloat64Le(uint32(st[0]+8), f) {
			panic("naga: store outside memory")
		}
		storeI32(m, st[0], uint32(boolI32(ok)))
	}},
	"__wbindgen_string_get": {sig(i32, ref), nil, func(ctx context.Context, m api.Module, st []uint64) {
		s, ok := values(ctx).get(st[1]).(string)
		if !ok {
			storeI32(m, st[0]+4, 0)
			storeI32(m, st[0], 0)
			return
		}
		passString(ctx, m, st[0], s)
	}},
	"__wbindgen_throw": {sig(i32, i32), nil, func(ctx context.Context, m api.Module, st []uint64) {
		msg := readString(m, st[0], st[1])
		values(ctx).lastErr = msg
		panic(&throwError{msg})
	}},
	"__wbindgen_generic": {sig(i32, i32), sig(ref), func(ctx context.Context, m api.Module, st []uint64) {
		// Cast intrinsic for Ref(String) -> Externref.
		st[0] = values(ctx).put(readString(m, st[0], st[1]))
	}},
	"__wbindgen_init_externref_table": {nil, nil, func(ctx context.Context, m api.Module, st []uint64) {
		// The glue grows the table by four and stores undefined, null,
		// true and false there. wazero gives the host no access to
		// tables, and every slot already holds a null externref, which is
		// undefined here; so there is nothing to do.
	}},
	"isSafeInteger": {sig(ref), sig(i32), func(ctx context.Context, m api.Module, st []uint64) {
		f, ok := values(ctx).get(st[0]).(float64)
		st[0] = boolI32(ok && f == math.Trunc(f) && math.Abs(f) <= 1<<53-1)
	}},
	"isArray":                {sig(ref), sig(i32), func(ctx context.Context, m api.Module, st []uint64) { st[0] = 0 }},
	"instanceof_ArrayBuffer": {sig(ref), sig(i32), func(ctx context.Context, m api.Module, st []uint64) { st[0] = 0 }},
	"instanceof_Uint8Array":  {sig(ref), sig(i32), func(ctx context.Context, m api.Module, st []uint64) { st[0] = 0 }},
	"length": {sig(ref), sig(i32), func(ctx context.Context, m api.Module, st []uint64) {
		s, ok := values(ctx).get(st[0]).(string)
		if !ok {
			panic("naga: import length: only strings have a length here")
		}
		st[0] = uint64(len(utf16.Encode([]rune(s))))
	}},
}

// unsupported are the imports that walk JavaScript objects. They are
// reached only through options Lower never passes.
var unsupported = []string{
	"call", "done", "entries", "get", "get_unchecked", "get_with_ref_key",
	"iterator", "new", "next", "prototypesetcall", "value",
}

// hashSuffix is the "_<16 hex digits>" wasm-bindgen appends to a name.
var hashSuffix = regexp.MustCompile(`_[0-9a-f]{16}$`)

// importKey strips wasm-bindgen's decoration from an import name:
// "__wbg___wbindgen_throw_5d9e815e6fdf150f" -> "__wbindgen_throw",
// "__wbg_Error_67e7344beaa85059" -> "Error".
func importKey(name string) string {
	k := hashSuffix.ReplaceAllString(name, "")
	if len(k) > len("__wbg_") && k[:len("__wbg_")] == "__wbg_" {
		k = k[len("__wbg_"):]
	}
	return k
}

// panicking is the body of an import that must not run.
func panicking(msg string) api.GoModuleFunc {
	return func(context.Context, api.Module, []uint64) { panic(msg) }
}

// instantiateGlue defines every import of cm in the host module
// "./naga_bg.js" of rt. An import not modelled here, or whose signature
// differs from the one expected, gets a body that panics with its name: a
// call of it fails that call, not the process.
func instantiateGlue(ctx context.Context, rt wazero.Runtime, cm wazero.CompiledModule) error {
	hb := rt.NewHostModuleBuilder(glueModule)
	for _, imp := range cm.ImportedFunctions() {
		mod, name, _ := imp.Import()
		if mod != glueModule {
			return fmt.Errorf("naga: wasm imports %s.%s; only %q is provided", mod, name, glueModule)
		}
		params, results := imp.ParamTypes(), imp.ResultTypes()
		key := importKey(name)
		var fn api.GoModuleFunc
		if h, ok := hostFuncs[key]; ok {
			if slices.Equal(h.params, params) && slices.Equal(h.results, results) {
				fn = h.fn
			} else {
				fn = panicking(fmt.Sprintf("naga: import %s has signature %v -> %v; the host implements %v -> %v",
					name, params, results, h.params, h.results))
			}
		} else if slices.Contains(unsupported, key) {
			fn = panicking("naga: import " + name + " works on JavaScript objects, which the host does not model")
		} else {
			fn = panicking("naga: import " + name + " is not implemented by the host")
		}
		hb.NewFunctionBuilder().WithGoModuleFunction(fn, params, results).WithName(key).Export(name)
	}
	_, err := hb.Instantiate(ctx)
	return err
}
