//go:build !(js && wasm)

package wgpu

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/streamgate/streamgate/wgpu/internal/lower"
	"github.com/streamgate/streamgate/wgpu/internal/naga"
	"github.com/streamgate/streamgate/wgpu/wgsl"
)

// The lowering of check.go's checks outside a browser: naga 30, run under
// wazero, rewrites today's WGSL for the driver's naga 0.13 (check_js.go
// hands the browser's current compiler the source as written instead).

// StartLowering starts, in the background, the sandbox in which every
// compile (and [CheckModule]) lowers its WGSL, and returns at once. The
// sandbox starts once per process, at the first compile otherwise, which
// then waits for it (tens of milliseconds with its compilation cache on
// disk warm): a program about to warm up calls StartLowering first, so
// that the start overlaps its own setup (opening the device, uploading
// weights). Where the kernel cache (see [KernelStore]) already holds what
// this build lowered in an earlier process, the sources are expected to
// hit and the sandbox is not started: the first source that misses starts
// it. A goroutine runs until the start, or that check, is done. It is
// safe for concurrent use; later calls do nothing.
func StartLowering() {
	startLowering.Do(func() {
		go func() {
			if !kernelsWarm() {
				naga.Prestart()
			}
		}()
	})
}

// startLowering makes StartLowering's work once a process.
var startLowering sync.Once

// checkModule is CheckModule's work for op: the kernel cache's result, or
// the lowering's, which it keeps when it is the source's own (not a
// sandbox failure, a timeout or a cancellation).
func checkModule(ctx context.Context, op, source string, constants map[string]float64, lim Limits) (*ModuleInfo, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	key := kernelKey(source, constants, lim)
	if r, ok := lookupKernel(ctx, key, source); ok {
		return r.result(op)
	}
	kernelCounts.misses.Add(1)
	mi, err, own := lowerModule(ctx, op, source, constants, lim)
	if !own {
		return nil, err // a failure of this process's, not kept
	}
	r := &kernelResult{mi: mi}
	if err != nil {
		r.err = err.(*Error)
	}
	keepKernel(ctx, key, r)
	return r.result(op)
}

// lowerModule lowers source and checks its entry points for op. own
// reports whether the result is the source's own, the same in every
// process: the module, or an *Error refusing it; not ctx's error, a
// sandbox failure or a timeout.
func lowerModule(ctx context.Context, op, source string, constants map[string]float64, lim Limits) (mi *ModuleInfo, err error, own bool) {
	lm, lerr := lower.Lower(ctx, source, constants, lower.Options{Limits: frontEndLimits(lim), Timeout: time.Duration(loweringTimeout.Load())})
	if lerr != nil {
		var le *lower.Error
		own = !errors.As(lerr, &le) || le.Kind == lower.KindInvalid
		err = loweringError(ctx, op, lerr)
		var e *Error
		return nil, err, own && errors.As(err, &e) && e == err && cacheableType(e.Type)
	}
	m := lm.Front
	mi = &ModuleInfo{Lowered: lm.Source, EntryPoints: make([]EntryPointInfo, 0, len(m.EntryPoints)), posMap: lm.Map}
	for i, ep := range m.EntryPoints {
		info := EntryPointInfo{Name: ep.Name, Stage: ep.Stage, WorkgroupSize: ep.WorkgroupSize, LoweredName: lm.LoweredNames[i]}
		for _, b := range ep.Bindings {
			info.Bindings = append(info.Bindings, bindingOf(b))
		}
		settleSampleTypes(info.Bindings)
		if ep.Stage == "compute" {
			if err := checkEntryLimits(info, lim); err != nil {
				return nil, newError(op, ErrorTypeLimit, "%v", err), true
			}
		}
		mi.EntryPoints = append(mi.EntryPoints, info)
	}
	return mi, nil, true
}

// loweringError converts an error of [lower.Lower].
func loweringError(ctx context.Context, op string, err error) error {
	var we *wgsl.Error
	var le *lower.Error
	var ue *lower.UnsupportedError
	switch {
	case ctx.Err() != nil && errors.Is(err, ctx.Err()):
		return ctx.Err()
	case errors.As(err, &we):
		return frontEndError(op, err)
	case errors.As(err, &ue):
		return &Error{Op: op, Type: ErrorTypeUnsupported, Message: err.Error()}
	case errors.As(err, &le):
		typ := ErrorTypeValidation
		switch le.Kind {
		case lower.KindLimit:
			typ = ErrorTypeLimit
		case lower.KindInternal:
			typ = ErrorTypeInternal
		}
		return &Error{Op: op, Type: typ, Message: le.Msg}
	}
	return newError(op, ErrorTypeInternal, "the lowering failed: %v", err)
}

// lowerReady waits for the lowering's sandbox to start.
func lowerReady() error { return naga.Ready(context.Background()) }

// loweringStarts counts the sandbox's starts in this process.
func loweringStarts() int64 { return naga.Starts() }
