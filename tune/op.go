package tune

// What the caller tunes: an Op and its candidates, the check every Pick and
// Run makes of them, and the two places the tuner calls the caller's code
// (a candidate's Run, an op's NewInputs), each with its panic recovered as
// a PanicError.

import (
	"context"
	"errors"
	"fmt"
	"runtime/debug"

	"github.com/streamgate/streamgate/client"
	"github.com/streamgate/streamgate/gpu"
)

// Candidate is one variant of an operation: a kernel with a workgroup size or
// tiling of its own, say.
type Candidate struct {
	// Name identifies the candidate within its op; names must be unique.
	Name string
	// Run issues one run's work — the candidate's launches for one
	// problem — through c, on the buffers in: the caller's own in a real
	// run ([Tuner.Run]), buffers made by [Op.NewInputs] in a measurement.
	// It must launch through c (not another client) so a measurement's
	// override governs its launches, must take the buffers it writes from
	// in (not capture the caller's), and must pass ctx to any Pick or Run it
	// calls (nested tuning).
	Run func(ctx context.Context, c *client.Client, in []gpu.Buffer) error
	// Kernels are the kernels Run launches, if the caller lists them
	// (optional): before a measurement times anything, the tuner compiles
	// every candidate's kernels in one batch ([gpu.Service.Precompile], on
	// the service's compile workers) rather than one at each candidate's
	// first run. A kernel that fails to compile there is left to its
	// candidate's first run, which fails the candidate with the error as
	// before.
	Kernels []*gpu.Kernel
}

// Op is one tunable operation: a key, the candidates that compete for it,
// and what the measurements may run them on. The tuner only reads an Op:
// one may be shared by goroutines.
//
// Measurements run the candidates many times. They run on buffers from
// NewInputs when it is set; else, when Pure is set, on the caller's
// buffers; with neither, Pick and Run refuse the op ([ErrUnsafeOp]) rather
// than run candidates on the caller's data.
type Op struct {
	// Key names the operation and its shape class, e.g. "matmul/256x256x256".
	Key string
	// Candidates are the variants, in the caller's order.
	Candidates []Candidate
	// NewInputs returns fresh buffers shaped like the real inputs, for the
	// measurements to read and overwrite, and a function that releases them
	// (nil if none is needed). It is called once per tune, never on a
	// decided key.
	NewInputs func(ctx context.Context) (in []gpu.Buffer, release func(), err error)
	// Pure declares that running the candidates on the caller's buffers is
	// harmless: a run's result does not depend on how many runs came before
	// (no in-place update such as y += a·x). Measurements then run on the
	// buffers given to Pick or Run. NewInputs, when set, is used instead.
	Pure bool
	// Default names the candidate that runs while the key is being tuned,
	// under [WithNoStall]; "" is the first candidate.
	Default string
}

// ErrUnsafeOp is returned for an [Op] with neither NewInputs nor Pure.
var ErrUnsafeOp = errors.New("op has neither NewInputs nor Pure: its measurements would run the candidates on the caller's data")

// checkOp reports what makes op unusable: no candidates, a candidate with
// no name or no Run, two of one name, an unknown default, or neither
// NewInputs nor Pure.
func checkOp(op Op) error {
	if len(op.Candidates) == 0 {
		return fmt.Errorf("tune: %s: no candidates", op.Key)
	}
	for i, c := range op.Candidates {
		if c.Name == "" || c.Run == nil {
			return fmt.Errorf("tune: %s: candidate %d has no name or no Run", op.Key, i)
		}
		// Quadratic, but candidates are few and this allocates nothing:
		// it runs on every Pick and Run.
		for _, prev := range op.Candidates[:i] {
			if prev.Name == c.Name {
				return fmt.Errorf("tune: %s: two candidates named %q", op.Key, c.Name)
			}
		}
	}
	if op.Default != "" && indexOf(op.Candidates, op.Default) < 0 {
		return fmt.Errorf("tune: %s: the default candidate %q is not one of the candidates", op.Key, op.Default)
	}
	if op.NewInputs == nil && !op.Pure {
		return fmt.Errorf("tune: %s: %w", op.Key, ErrUnsafeOp)
	}
	return nil
}

func candidateNames(cands []Candidate) []string {
	names := make([]string, len(cands))
	for i, c := range cands {
		names[i] = c.Name
	}
	return names
}

func indexOf(cands []Candidate, name string) int {
	for i, c := range cands {
		if c.Name == name {
			return i
		}
	}
	return -1
}

// PanicError is the error of a candidate (or an [Op.NewInputs]) that
// panicked: the tuner recovers the panic, marks the candidate failed and
// carries on. Match it with errors.As.
type PanicError struct {
	Value any    // what was passed to panic
	Stack []byte // the panicking goroutine's stack, as debug.Stack formats it
}

// Error returns "panic: " and the value; the stack is in Stack.
func (e *PanicError) Error() string { return fmt.Sprintf("panic: %v", e.Value) }

// Unwrap returns the panic value when it is an error.
func (e *PanicError) Unwrap() error {
	err, _ := e.Value.(error)
	return err
}

// runCandidate runs c once on in, its panic recovered as a *PanicError.
func runCandidate(ctx context.Context, c Candidate, cl *client.Client, in []gpu.Buffer) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = &PanicError{Value: r, Stack: debug.Stack()}
		}
	}()
	return c.Run(ctx, cl, in)
}

// measurementInputs returns the buffers the measurements of op run on, and
// how to release them: fresh ones from op.NewInputs (its panic recovered as
// a *PanicError), else (op.Pure) the caller's own.
func measurementInputs(ctx context.Context, op Op, callers []gpu.Buffer) (in []gpu.Buffer, release func(), err error) {
	if op.NewInputs == nil {
		return callers, func() {}, nil
	}
	func() {
		defer func() {
			if r := recover(); r != nil {
				err = &PanicError{Value: r, Stack: debug.Stack()}
			}
		}()
		in, release, err = op.NewInputs(ctx)
	}()
	if err != nil {
		return nil, nil, fmt.Errorf("tune: %s: NewInputs: %w", op.Key, err)
	}
	if release == nil {
		release = func() {}
	}
	return in, release, nil
}
