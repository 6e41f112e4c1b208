package naga

import (
	"context"
	"errors"
	"fmt"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"
)

// maxIdleMemory is the largest linear memory an instance may have and still
// go back to the pool; a bigger one (grown by a huge source) is dropped.
const maxIdleMemory = 64 << 20

// instance is one instantiation of the naga module with its exports. It is
// not safe for concurrent use: the pool hands it to one caller at a time.
// After any error of a call (a trap, a canceled context) its state is
// unknown and it must be closed, never reused.
type instance struct {
	mod  api.Module
	vals jsValues // the JavaScript values of the current call

	// Exports, looked up once. Each api.Function serves one call at a time;
	// the host uses vals.malloc, so these are never re-entered.
	malloc, free, parse, validate, write, moduleFree, infoFree, tableDealloc api.Function
}

// newInstance instantiates cm and runs wasm-bindgen's start function.
func newInstance(ctx context.Context, rt wazero.Runtime, cm wazero.CompiledModule) (*instance, error) {
	mod, err := rt.InstantiateModule(ctx, cm, wazero.NewModuleConfig().WithName("").WithStartFunctions())
	if err != nil {
		return nil, err
	}
	in := &instance{mod: mod}
	for _, e := range []struct {
		fn   *api.Function
		name string
	}{
		{&in.malloc, "__wbindgen_malloc"},
		{&in.vals.malloc, "__wbindgen_malloc"},
		{&in.free, "__wbindgen_free"},
		{&in.parse, "parseWgsl"},
		{&in.validate, "validate"},
		{&in.write, "writeWgsl"},
		{&in.moduleFree, "__wbg_module_free"},
		{&in.infoFree, "__wbg_moduleinfo_free"},
		{&in.tableDealloc, "__externref_table_dealloc"},
	} {
		if *e.fn = mod.ExportedFunction(e.name); *e.fn == nil {
			mod.Close(ctx)
			return nil, fmt.Errorf("naga: wasm does not export %s", e.name)
		}
	}
	start := mod.ExportedFunction("__wbindgen_start")
	if start == nil {
		mod.Close(ctx)
		return nil, errors.New("naga: wasm does not export __wbindgen_start")
	}
	if _, err := start.Call(in.enter(ctx)); err != nil {
		mod.Close(ctx)
		return nil, err
	}
	return in, nil
}

// enter starts a call: it forgets the previous call's JavaScript values
// and returns ctx carrying this instance's, for the host functions.
func (in *instance) enter(ctx context.Context) context.Context {
	in.vals.reset()
	return context.WithValue(ctx, valuesKey{}, &in.vals)
}

// reusable reports whether in may go back to the pool after a call that
// returned no runtime error.
func (in *instance) reusable() bool {
	return in.mod.Memory().Size() <= maxIdleMemory
}

func (in *instance) close() { in.mod.Close(context.Background()) }

// lower parses, validates and writes source. A rejection by naga is
// nagaErr, with the instance still good; err is a failure of the runtime
// (a trap, a canceled context), after which the instance must be dropped.
func (in *instance) lower(ctx context.Context, source string) (out string, nagaErr *Error, err error) {
	ctx = in.enter(ctx)
	res, err := in.malloc.Call(ctx, uint64(len(source)), 1)
	if err != nil {
		return "", nil, err
	}
	if !in.mod.Memory().WriteString(uint32(res[0]), source) {
		return "", nil, errors.New("naga: malloc returned memory outside memory")
	}
	// parseWgsl takes ownership of the string.
	res, err = in.parse.Call(ctx, res[0], uint64(len(source)))
	if err != nil {
		return "", nil, err
	}
	if res[2] != 0 {
		return in.takeError(ctx, StageParse, res[1])
	}
	module := res[0]
	defer func() {
		if err == nil {
			_, err = in.moduleFree.Call(ctx, module, 1)
		}
	}()

	res, err = in.validate.Call(ctx, module)
	if err != nil {
		return "", nil, err
	}
	if res[2] != 0 {
		return in.takeError(ctx, StageValidate, res[1])
	}
	info := res[0]
	defer func() {
		if err == nil {
			_, err = in.infoFree.Call(ctx, info, 1)
		}
	}()

	// The options argument is an externref; 0, a null one, is undefined:
	// naga's default WGSL writer flags.
	res, err = in.write.Call(ctx, module, info, 0)
	if err != nil {
		return "", nil, err
	}
	if res[3] != 0 {
		return in.takeError(ctx, StageWrite, res[2])
	}
	b, ok := in.mod.Memory().Read(uint32(res[0]), uint32(res[1]))
	if !ok {
		return "", nil, errors.New("naga: writeWgsl returned a string outside memory")
	}
	out = string(b)
	if _, err = in.free.Call(ctx, res[0], res[1], 1); err != nil {
		return "", nil, err
	}
	return out, nil, nil
}

// takeError turns the Error the wasm just threw into an Error of stage and
// frees its slot in the wasm's externref table, as the glue's
// takeFromExternrefTable0 does. The host cannot read that table; the
// thrown value is the last Error the wasm created during the call. It has
// lower's results.
func (in *instance) takeError(ctx context.Context, stage string, slot uint64) (string, *Error, error) {
	msg := in.vals.lastErr
	if in.vals.errors == 0 {
		msg = "naga reported an error without a message"
	}
	if _, err := in.tableDealloc.Call(ctx, slot); err != nil {
		return "", nil, err
	}
	return "", parseDiagnostic(stage, msg), nil
}
