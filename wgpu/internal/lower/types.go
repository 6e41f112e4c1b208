package lower

import (
	"time"

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
