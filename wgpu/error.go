package wgpu

import (
	"fmt"
	"strings"

	"github.com/streamgate/streamgate/gpu"
)

// ErrorType classifies an [Error]: one type per rule broken, whoever checked
// it. A mistake that breaks a WebGPU or WGSL rule has the same type whether
// this package's front-end or [Device.Launch] refused it before the driver
// or the driver rejected it at submit; the message says which checker saw
// it.
type ErrorType uint8

const (
	// ErrorTypeValidation: a WebGPU or WGSL rule was broken: invalid WGSL,
	// a missing or non-compute entry point, a buffer smaller than its
	// binding or without the usage its binding or transfer needs, the wrong
	// number of buffers for a kernel, a read_write binding aliased, a range
	// past a buffer's end or not 4-aligned. The message is the driver's
	// where the driver saw it.
	ErrorTypeValidation ErrorType = iota + 1
	// ErrorTypeOutOfMemory: the driver ran out of memory.
	ErrorTypeOutOfMemory
	// ErrorTypeInternal: an internal driver error, or the in-process WGSL
	// compiler's sandbox failed.
	ErrorTypeInternal
	// ErrorTypeLimit: the request exceeds one of the device's limits, or
	// one of the WGSL front-end's safety limits (see wgsl.Limits); it was
	// rejected before reaching the driver.
	ErrorTypeLimit
	// ErrorTypeInvalidArgument: what only a Go caller can get wrong: a nil
	// kernel, buffer or device, a buffer of another device or another
	// type, a released or recycled buffer, a negative length, a buffer
	// size that is not a positive multiple of 4.
	ErrorTypeInvalidArgument
	// ErrorTypeUnsupported: the device lacks a feature the call needs.
	ErrorTypeUnsupported
	// ErrorTypeNoAdapter: no adapter matches the options. Match it with
	// errors.Is(err, [ErrNoAdapter]).
	ErrorTypeNoAdapter
	// ErrorTypeClosed: the device is closed. Match it with
	// errors.Is(err, [ErrClosed]).
	ErrorTypeClosed
	// ErrorTypeNoCgo: the program was built without cgo, so this package
	// has no WebGPU: [Open] and [Adapters] fail. Match it with
	// errors.Is(err, [ErrNoCgo]).
	ErrorTypeNoCgo
	// ErrorTypeStreamClosed: the call would record on a stream that
	// [Device.CloseStream] retired. Match it with errors.Is(err,
	// [ErrStreamClosed]) or errors.Is(err, gpu.ErrStreamClosed).
	ErrorTypeStreamClosed
)

var errorTypeNames = [...]string{
	ErrorTypeValidation:      "Validation",
	ErrorTypeOutOfMemory:     "OutOfMemory",
	ErrorTypeInternal:        "Internal",
	ErrorTypeLimit:           "Limit",
	ErrorTypeInvalidArgument: "InvalidArgument",
	ErrorTypeUnsupported:     "Unsupported",
	ErrorTypeNoAdapter:       "NoAdapter",
	ErrorTypeClosed:          "Closed",
	ErrorTypeNoCgo:           "NoCgo",
	ErrorTypeStreamClosed:    "StreamClosed",
}

// String returns the type's name.
func (t ErrorType) String() string {
	if int(t) < len(errorTypeNames) && errorTypeNames[t] != "" {
		return errorTypeNames[t]
	}
	return fmt.Sprintf("ErrorType(%d)", uint8(t))
}

// Error is the one error type of this package. Op names the operation
// ("Compile", "Launch", "NewBuffer", ...), Type classifies the failure and
// Message keeps the driver's text where the driver produced it. Match it with
// errors.As; match the sentinels [ErrClosed], [ErrNoAdapter], [ErrNoCgo] and
// [ErrStreamClosed] with errors.Is, which compares Type only.
//
// An Error is immutable once returned and safe to share.
type Error struct {
	Op      string
	Type    ErrorType
	Message string

	sentinel bool // written once: set on ErrClosed, ErrNoAdapter and ErrNoCgo only
}

var (
	// ErrClosed is returned (wrapped in an [*Error] naming the operation)
	// by every call on a closed [Device] or on a buffer of one.
	ErrClosed = &Error{Type: ErrorTypeClosed, Message: "device is closed", sentinel: true}
	// ErrNoAdapter is matched by the error [Open] returns when no adapter
	// fits the options.
	ErrNoAdapter = &Error{Type: ErrorTypeNoAdapter, Message: "no adapter", sentinel: true}
	// ErrNoCgo is matched by the error every call returns in a program
	// built without cgo (CGO_ENABLED=0): the package then compiles, with the
	// same API, but has no WebGPU.
	ErrNoCgo = &Error{Type: ErrorTypeNoCgo, Message: noCgoMessage, sentinel: true}
	// ErrStreamClosed is matched by the error of a call that would record
	// on a stream [Device.CloseStream] retired (a Launch, a replay, a
	// capture, a TimeStream): a retired stream is never made anew. Such an
	// error matches gpu.ErrStreamClosed too.
	ErrStreamClosed = &Error{Type: ErrorTypeStreamClosed, Message: "stream is closed", sentinel: true}
)

// noCgoMessage says why a build without cgo has no WebGPU and how to get it.
const noCgoMessage = "this program was built without cgo (CGO_ENABLED=0), and WebGPU needs it: " +
	"wgpu-native is a C library. Rebuild with CGO_ENABLED=1 and a C compiler on PATH " +
	"(gcc or clang; go env CC names the one go uses)"

// noCgo returns the error every call of op returns in a build without a
// device (device_none.go).
func noCgo(op string) error {
	return &Error{Op: op, Type: ErrorTypeNoCgo, Message: noCgoMessage}
}

// nilDeviceError is the error of a call on a nil *Device: where this build
// has no device, the one [Open] returned ([ErrNoCgo]); else an invalid
// argument.
func nilDeviceError(op string) error {
	if !haveDevice {
		return noCgo(op)
	}
	return newError(op, ErrorTypeInvalidArgument, "nil device (the *Device of an Open that failed?)")
}

// callbackError is the error of an op that would await a promise inside a
// js.FuncOf callback.
func callbackError(op string) error {
	return newError(op, ErrorTypeInvalidArgument, "called inside a js.FuncOf callback, where awaiting the browser would deadlock "+
		"(the page's event loop waits for the callback to return): call it from a goroutine (go func() { … }())")
}

// nilBufferError is the error of a call on a nil *Buffer (see
// nilDeviceError).
func nilBufferError(op string) error {
	if !haveDevice {
		return noCgo(op)
	}
	return newError(op, ErrorTypeInvalidArgument, "nil buffer")
}

// Error formats the error as "wgpu: Op: Type: Message".
func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString("wgpu: ")
	if e.Op != "" {
		b.WriteString(e.Op)
		b.WriteString(": ")
	}
	b.WriteString(e.Type.String())
	if e.Message != "" {
		b.WriteString(": ")
		b.WriteString(e.Message)
	}
	return b.String()
}

// Is reports whether target is one of the sentinels ([ErrClosed],
// [ErrNoAdapter], [ErrNoCgo], [ErrStreamClosed]) of e's Type, or
// gpu.ErrStreamClosed for an error of type StreamClosed.
func (e *Error) Is(target error) bool {
	if target == gpu.ErrStreamClosed {
		return e.Type == ErrorTypeStreamClosed
	}
	t, ok := target.(*Error)
	return ok && t.sentinel && t.Type == e.Type
}

func newError(op string, typ ErrorType, format string, args ...any) *Error {
	return &Error{Op: op, Type: typ, Message: fmt.Sprintf(format, args...)}
}

func closedError(op string) *Error {
	return &Error{Op: op, Type: ErrorTypeClosed, Message: ErrClosed.Message}
}

// streamClosedError is the error of op on stream id, which CloseStream
// retired.
func streamClosedError(op string, id gpu.StreamID) *Error {
	return &Error{Op: op, Type: ErrorTypeStreamClosed, Message: fmt.Sprintf("stream %d is closed (CloseStream retired it)", id)}
}
