//go:build js && wasm

package wgpu

import (
	"context"
	"errors"

	"github.com/streamgate/streamgate/wgpu/internal/lower"
	"github.com/streamgate/streamgate/wgpu/wgsl"
)

// The js build's half of check.go: the browser's compiler is current, so
// a module goes to it as the user wrote it, with only its overrides bound
// by the front-end (lower.Bind); no naga, no wazero in the page. Lowered
// is that source, and LoweredName the entry point's own name.

// StartLowering does nothing in the js build: there is no lowering to
// start (the browser compiles today's WGSL as written).
func StartLowering() {}

func checkModule(ctx context.Context, op, source string, constants map[string]float64, lim Limits) (*ModuleInfo, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	b, err := lower.Bind(source, constants, frontEndLimits(lim))
	if err != nil {
		var we *wgsl.Error
		var le *lower.Error
		switch {
		case errors.As(err, &we):
			return nil, frontEndError(op, err)
		case errors.As(err, &le):
			return nil, &Error{Op: op, Type: ErrorTypeValidation, Message: le.Msg}
		}
		return nil, newError(op, ErrorTypeInternal, "%v", err)
	}
	m := b.Front
	if err := lower.Supports(m.File, source, lower.BrowserDevice); err != nil {
		return nil, &Error{Op: op, Type: ErrorTypeUnsupported, Message: err.Error()}
	}
	mi := &ModuleInfo{Lowered: b.Source, EntryPoints: make([]EntryPointInfo, 0, len(m.EntryPoints)), bound: b}
	for _, ep := range m.EntryPoints {
		info := EntryPointInfo{Name: ep.Name, Stage: ep.Stage, WorkgroupSize: ep.WorkgroupSize, LoweredName: ep.Name}
		for _, bd := range ep.Bindings {
			info.Bindings = append(info.Bindings, bindingOf(bd))
		}
		settleSampleTypes(info.Bindings)
		if ep.Stage == "compute" {
			if err := checkEntryLimits(info, lim); err != nil {
				return nil, newError(op, ErrorTypeLimit, "%v", err)
			}
		}
		mi.EntryPoints = append(mi.EntryPoints, info)
	}
	return mi, nil
}

// loweringStarts is 0: the browser's build lowers nothing.
func loweringStarts() int64 { return 0 }
