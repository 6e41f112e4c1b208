package lower

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/streamgate/streamgate/wgpu/internal/naga"
	"github.com/streamgate/streamgate/wgpu/wgsl"
)

// Options are [Lower]'s limits.
type Options struct {
	// Limits are the front-end's (zero fields: wgsl's defaults).
	Limits wgsl.Limits
	// Timeout bounds naga's run, counted after its sandbox has started;
	// 0 is no bound but ctx's.
	Timeout time.Duration
}

// Module is a user's module lowered for the driver.
type Module struct {
	// Front is the front-end's reading of the user's module, the
	// overrides' values in (array counts, workgroup sizes).
	Front *wgsl.Module
	// Source is the module the driver compiles.
	Source string
	// LoweredNames are the names in Source of Front's entry points, in
	// the same order: naga renames a function whose name the driver
	// reserves.
	LoweredNames []string
	// Map maps a position of Source back to the user's source.
	Map *Map
}

// ErrorKind classifies an [*Error].
type ErrorKind uint8

// The kinds of [*Error].
const (
	// KindInvalid: the module breaks a rule of WGSL or of WebGPU (naga
	// 30's validation, an override's value).
	KindInvalid ErrorKind = iota + 1
	// KindLimit: the lowering ran past Options.Timeout.
	KindLimit
	// KindInternal: the compiler's sandbox failed, or its output did not
	// read; not the module's fault.
	KindInternal
)

// Error is a module [Lower] refuses, other than the front-end's refusals
// (a *wgsl.Error) and the driver's (an *UnsupportedError). Where it has a
// position, Msg begins with "wgsl:LINE:COL: " in the user's source.
type Error struct {
	Kind ErrorKind
	Msg  string
}

func (e *Error) Error() string { return e.Msg }

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
//  4. [ForDriver] reads naga's output once as a tree and rewrites it: the
//     driver checks, array values indexed through variables, the packed
//     4x8 polyfills, and the [Map] from its positions back to the user's.
//
// Errors are *wgsl.Error, *Error, *UnsupportedError, or ctx.Err() when
// ctx ends first.
func Lower(ctx context.Context, source string, constants map[string]float64, opts Options) (*Module, error) {
	m, err := wgsl.Parse(source, opts.Limits)
	if err != nil {
		return nil, err
	}
	f := m.File
	changed, err := BindOverrides(m, constants)
	if err != nil {
		return nil, &Error{KindInvalid, err.Error()}
	}
	bound := source
	var marks []wgsl.Mark
	if changed {
		// Array counts and workgroup sizes may use the overrides: analyze
		// the tree again with the values in (its positions are still the
		// user's), then print it for naga.
		if m, err = wgsl.Analyze(f, source, opts.Limits); err != nil {
			return nil, err
		}
		bound, marks = wgsl.SprintMarks(f)
	}
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
				l, c = userPosition(source, bound, marks, l, c)
			}
			where = fmt.Sprintf("wgsl:%d:%d: ", l, c)
		}
		return nil, &Error{KindInvalid, fmt.Sprintf("%s%s (%s)", where, ne.Msg, naga.Version())}
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
