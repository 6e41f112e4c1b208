package naga

import (
	"regexp"
	"strconv"
	"strings"
)

// Stages of [Lower], as reported in [Error.Stage].
const (
	StageParse    = "parse"    // naga's WGSL front end rejected the source
	StageValidate = "validate" // naga's validator rejected the module
	StageWrite    = "write"    // naga's WGSL back end failed
	StageSandbox  = "sandbox"  // the sandbox failed: start, trap, memory limit
)

// Error is the error [Lower] returns for a source naga rejects and for a
// failure of the sandbox. Parse and validate errors are deterministic: the
// same source always gets the same Error. Each call returns its own copy,
// which nothing else modifies: the caller may keep, read and change it.
type Error struct {
	// Stage is the step that failed: StageParse, StageValidate,
	// StageWrite or StageSandbox.
	Stage string
	// Line and Column locate the error in the source, both from 1 (Column
	// counts characters). They are 0 when naga gave no position.
	Line, Column int
	// Msg is naga's headline without its "error: " prefix, followed by
	// naga's notes, joined by ": ".
	Msg string
	// Full is naga's whole rendered diagnostic, with the source excerpt
	// and its labels. For a sandbox error it is the runtime's message,
	// wasm stack trace included.
	Full string

	err error // the runtime's error, for a sandbox error; else nil
}

// Error formats e as "line:column: msg", or "msg" when e has no position.
// A sandbox error reads "naga sandbox: msg".
func (e *Error) Error() string {
	switch {
	case e.Stage == StageSandbox:
		return "naga sandbox: " + e.Msg
	case e.Line > 0:
		return strconv.Itoa(e.Line) + ":" + strconv.Itoa(e.Column) + ": " + e.Msg
	default:
		return e.Msg
	}
}

// Unwrap returns the runtime's error behind a sandbox error, or nil.
func (e *Error) Unwrap() error { return e.err }

// position matches the location line of naga's codespan rendering,
// "  ┌─ wgsl:3:10".
var position = regexp.MustCompile(`wgsl:(\d+):(\d+)`)

// parseDiagnostic turns naga's rendered diagnostic into an Error of stage.
// The rendering looks like:
//
//	error: Entry point main at Compute is invalid
//	  ┌─ wgsl:4:11
//	  │
//	4 │   let b = a[5];
//	  │           ^^^^ naga::ir::Expression [1]
//	  │
//	  = Expression [1] is invalid
//	  = Accessing index 5 is out of [0] bounds
func parseDiagnostic(stage, full string) *Error {
	full = strings.TrimRight(full, "\n")
	e := &Error{Stage: stage, Full: full}
	lines := strings.Split(full, "\n")
	msg := []string{strings.TrimPrefix(strings.TrimSpace(lines[0]), "error: ")}
	for _, l := range lines[1:] {
		l = strings.TrimSpace(l)
		if note, ok := strings.CutPrefix(l, "= "); ok {
			msg = append(msg, strings.TrimPrefix(note, "note: "))
		}
	}
	e.Msg = strings.Join(msg, ": ")
	if m := position.FindStringSubmatch(full); m != nil {
		e.Line, _ = strconv.Atoi(m[1])
		e.Column, _ = strconv.Atoi(m[2])
	}
	return e
}

// sandboxError wraps a failure of the runtime.
func sandboxError(err error) *Error {
	full := err.Error()
	msg, _, _ := strings.Cut(full, "\n")
	return &Error{Stage: StageSandbox, Msg: msg, Full: full, err: err}
}
