package wgsl

import (
	"fmt"
	"unicode/utf8"
)

// ErrorKind classifies an [Error].
type ErrorKind uint8

const (
	// KindInvalid: the source breaks a rule of WGSL, or declares what this
	// package does not support (a texture_external binding).
	KindInvalid ErrorKind = iota
	// KindLimit: the source exceeds one of the [Limits], which keep it
	// well below what crashes the driver's compiler or exhausts memory.
	KindLimit
	// KindUnsupported: the source declares what a compiler accepts but no
	// WebGPU device binds (binding arrays, ray queries' acceleration
	// structures).
	KindUnsupported
)

// String returns "invalid", "limit" or "unsupported".
func (k ErrorKind) String() string {
	switch k {
	case KindLimit:
		return "limit"
	case KindUnsupported:
		return "unsupported"
	}
	return "invalid"
}

// Error is the one error type of this package: a problem at a position of the
// source. Line and Column are 1-based; Column counts characters (runes), not
// bytes. An Error is immutable once returned and safe to share.
type Error struct {
	Line, Column int
	Msg          string
	Kind         ErrorKind
}

// Error formats the error as "wgsl:LINE:COL: msg".
func (e *Error) Error() string {
	return fmt.Sprintf("wgsl:%d:%d: %s", e.Line, e.Column, e.Msg)
}

// errorAt returns an *Error for byte offset off of src.
func errorAt(src string, off int, format string, args ...any) *Error {
	if off < 0 {
		off = 0
	}
	if off > len(src) {
		off = len(src)
	}
	line, col := 1, 1
	start := 0
	for i := 0; i < off; i++ {
		if src[i] == '\n' {
			line++
			start = i + 1
		}
	}
	col += utf8.RuneCountInString(src[start:off])
	return &Error{Line: line, Column: col, Msg: fmt.Sprintf(format, args...)}
}
