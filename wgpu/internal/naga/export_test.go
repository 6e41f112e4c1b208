package naga

import (
	"context"
	"errors"
)

// ResetSandbox closes the process's sandbox, so that the next call starts
// a fresh one, and empties the result cache. Call it only while no Lower
// runs.
func ResetSandbox() error {
	results = newResultCache()
	sb := current.Swap(nil)
	if sb == nil {
		return nil
	}
	return sb.close()
}

// ResetResults empties the result cache.
func ResetResults() { results = newResultCache() }

// SetCacheDir makes the next sandbox use dir for its compilation cache
// ("" for none) and returns a function that restores the default.
func SetCacheDir(dir string) (restore func()) {
	old := cacheDir
	cacheDir = func() string { return dir }
	return func() { cacheDir = old }
}

// Start starts the sandbox, as the first Lower does.
func Start(ctx context.Context) error {
	_, err := loadSandbox(ctx)
	return err
}

// PoolStats returns how many instances the sandbox has made and dropped.
func PoolStats() (made, dropped int64) {
	sb := current.Load()
	if sb == nil || sb.pool == nil {
		return 0, 0
	}
	return sb.pool.made.Load(), sb.pool.dropped.Load()
}

// ImportKeys returns the modelled name of each import of the wasm, and
// whether the host implements it with the signature the wasm declares.
func ImportKeys(ctx context.Context) (map[string]bool, error) {
	sb, err := loadSandbox(ctx)
	if err != nil {
		return nil, err
	}
	keys := map[string]bool{}
	for _, imp := range sb.cm.ImportedFunctions() {
		_, name, _ := imp.Import()
		k := importKey(name)
		h, ok := hostFuncs[k]
		keys[k] = ok && equalTypes(h.params, imp.ParamTypes()) && equalTypes(h.results, imp.ResultTypes())
	}
	return keys, nil
}

func equalTypes(a, b []byte) bool { return string(a) == string(b) }

// Trap makes an instance of the sandbox's pool run a call that fails in
// the runtime, the way lower's calls are run, and returns the error. The
// instance is dropped, as after a trap in Lower.
func Trap(ctx context.Context, kind string) error {
	sb, err := loadSandbox(ctx)
	if err != nil {
		return err
	}
	in, err := sb.pool.get(ctx)
	if err != nil {
		return err
	}
	ctx = in.enter(ctx)
	switch kind {
	case "unreachable": // an impossible allocation: Rust aborts
		_, err = in.malloc.Call(ctx, 0xFFFF_FFF0, 1<<20)
	case "throw": // a null pointer: wasm-bindgen calls __wbindgen_throw
		_, err = in.moduleFree.Call(ctx, 0, 1)
	case "out-of-bounds": // a string past the end of memory
		_, err = in.parse.Call(ctx, 0xFFFF_FF00, 0x80)
	default:
		err = errors.New("naga: Trap: unknown kind " + kind)
	}
	sb.pool.put(in, err != nil)
	return err
}
