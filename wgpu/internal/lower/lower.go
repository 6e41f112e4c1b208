//go:build !(js && wasm)

package lower

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/streamgate/streamgate/wgpu/internal/naga"
)

// Lower lowers the user's module source, with the override values
// constants (by name or by @id), for the driver:
//
//  1. The front-end reads source once into a tree and checks it
//     ([wgsl.Parse]): its errors are *wgsl.Errors at the user's line and
//     column.
//  2. The overrides become consts holding their values, in the tree
//     ([BindOverrides]); when there were any, the front-end's analyses
//     run again on the rewritten tree ([wgsl.Analyze], no second parse)
//     and the tree is printed for naga, with the marks that map naga's
//     positions back to the user's.
//  3. naga 30 validates the module and writes it in the driver's dialect
//     (abstract literals concretized, const expressions evaluated), under
//     Options.Timeout.
//  4. A storage texture an entry point reads is refused
//     ([ReadableStorageTextures]), and [ForDriver] reads naga's output once
//     as a tree and rewrites it: the driver checks, array values indexed
//     through variables, the packed 4x8 polyfills, and the [Map] from its
//     positions back to the user's.
//
// Errors are *wgsl.Error, *Error, *UnsupportedError, or ctx.Err() when
// ctx ends first.
func Lower(ctx context.Context, source string, constants map[string]float64, opts Options) (*Module, error) {
	b, err := Bind(source, constants, opts.Limits)
	if err != nil {
		return nil, err
	}
	m, f, bound, changed := b.Front, b.Front.File, b.Source, b.Changed
	out, err := nagaLower(ctx, bound, opts.Timeout)
	if err != nil {
		var ne *naga.Error
		switch {
		case ctx.Err() != nil && errors.Is(err, ctx.Err()):
			return nil, ctx.Err()
		case errors.Is(err, context.DeadlineExceeded):
			return nil, &Error{KindLimit, fmt.Sprintf("the WGSL compiler (%s) took more than %v, the limit of one lowering (LoweringTimeout): simplify the module or split it", naga.Version(), opts.Timeout)}
		case !errors.As(err, &ne) || ne.Stage == naga.StageSandbox:
			return nil, &Error{KindInternal, fmt.Sprintf("the WGSL compiler's sandbox (%s) failed: %v", naga.Version(), err)}
		}
		where := "wgsl: "
		if ne.Line > 0 {
			l, c := ne.Line, ne.Column
			if changed {
				l, c = b.UserPosition(l, c)
			}
			where = fmt.Sprintf("wgsl:%d:%d: ", l, c)
		}
		return nil, &Error{KindInvalid, fmt.Sprintf("%s%s (%s)", where, ne.Msg, naga.Version())}
	}
	if err := ReadableStorageTextures(m, source); err != nil {
		return nil, err
	}
	r, err := forDriver(f, source, out)
	if err != nil {
		var ue *UnsupportedError
		if errors.As(err, &ue) {
			return nil, err
		}
		return nil, &Error{KindInternal, fmt.Sprintf("the lowering could not read naga's output (%s): %v", naga.Version(), err)}
	}
	lm := &Module{Front: m, Source: r.Source, Map: r.Map, LoweredNames: make([]string, len(m.EntryPoints))}
	// naga writes the entry points in source order, renaming those whose
	// names the driver reserves.
	for i, ep := range m.EntryPoints {
		lm.LoweredNames[i] = ep.Name
		if len(r.EntryPoints) == len(m.EntryPoints) && r.EntryPoints[i].Stage == ep.Stage {
			lm.LoweredNames[i] = r.EntryPoints[i].Name
		}
	}
	return lm, nil
}

// nagaLower is [naga.Lower] under timeout counted from the sandbox's
// start. A ctx done first returns ctx's error.
func nagaLower(ctx context.Context, source string, timeout time.Duration) (string, error) {
	if err := naga.Ready(ctx); err != nil {
		return "", err
	}
	if timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, timeout)
		defer cancel()
	}
	return naga.Lower(ctx, source)
}
