package naga

import (
	"context"
	"crypto/sha256"
	"unicode/utf8"
)

// results caches what Lower returned, by the SHA-256 of the source.
var results = newResultCache()

// Lower parses source as WGSL and validates it by naga 30's rules, then
// writes the module back out as WGSL, the form naga 30's WGSL back end
// emits: every literal concrete (0f, 1u), constants and const-expressions
// evaluated (array<f32, 512>, @workgroup_size(64, 1, 1)), for loops as
// loop with continuing, const declarations inlined and dropped. Override
// declarations stay as they are.
//
// Lower is safe for concurrent use by multiple goroutines; calls run in
// parallel on up to GOMAXPROCS sandbox instances (or as many as [Reserve]
// asked for) and wait for one beyond that. The first call in a process
// starts the sandbox, which takes about a second without a warm
// compilation cache; calls made meanwhile wait for it.
//
// A source naga rejects returns an [*Error] of stage StageParse (naga 30's
// front end also type-checks: let x: u32 = 1.5 fails here),
// StageValidate or StageWrite, with naga's position and message. Any
// failure of the sandbox returns an *Error of stage StageSandbox: a trap
// in the wasm (naga's own 1 MiB stack overflows on an expression nested
// some 1000 to 2000 deep and traps), the 1 GiB memory limit, a failed
// start. The process is not harmed; the instance that failed is dropped.
//
// Results and naga's rejections are cached by the source's SHA-256, so a
// repeated source costs a hash and a map lookup. Sandbox errors are not
// cached.
//
// If ctx is done before or while Lower runs, Lower returns ctx.Err() and
// caches nothing; a call in progress is stopped within milliseconds.
func Lower(ctx context.Context, source string) (string, error) {
	if err := ctx.Err(); err != nil {
		return "", err
	}
	key := sha256.Sum256([]byte(source))
	if out, err, ok := results.Load(key); ok {
		return out, err
	}
	if !utf8.ValidString(source) {
		// Rust's &str must be UTF-8; the glue would never pass anything
		// else.
		e := invalidUTF8(source)
		results.Store(key, result{err: e})
		c := *e
		return "", &c
	}
	sb, err := loadSandbox(ctx)
	if err != nil {
		return "", err
	}
	out, nagaErr, err := sb.pool.lower(ctx, source)
	if err != nil {
		if cerr := ctx.Err(); cerr != nil {
			return "", cerr
		}
		return "", sandboxError(err)
	}
	results.Store(key, result{out: out, err: nagaErr})
	if nagaErr != nil {
		c := *nagaErr
		return "", &c
	}
	return out, nil
}

// Ready waits for the sandbox to start (at once after the first call in a
// process), so that a caller can time [Lower] without the start. It returns
// ctx.Err() if ctx is done first, and the start's error if it failed; the
// start goes on for the next caller either way.
func Ready(ctx context.Context) error {
	_, err := loadSandbox(ctx)
	return err
}

// invalidUTF8 is the parse error for a source that is not UTF-8, at its
// first bad byte.
func invalidUTF8(source string) *Error {
	line, col := 1, 1
	for i, r := range source {
		if r == utf8.RuneError {
			if _, n := utf8.DecodeRuneInString(source[i:]); n == 1 {
				break
			}
		}
		if r == '\n' {
			line, col = line+1, 1
		} else {
			col++
		}
	}
	msg := "source is not valid UTF-8"
	return &Error{Stage: StageParse, Line: line, Column: col, Msg: msg, Full: "error: " + msg}
}
