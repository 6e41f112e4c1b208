package fuzz

import (
	"fmt"

	"github.com/streamgate/streamgate/internal/model"
	"github.com/streamgate/streamgate/registry"
)

// RunSequential applies ops in order to r and to the sequential model, and
// returns an error describing the first difference, or nil. r must be new:
// empty, under [registry.ProcessExecute].
//
// Besides each read op's own answer it compares, after every op, all that
// can be read: Mode of every stream in [Streams] under both defaults,
// Resolve, Live of both modes and ProcessMode. A wrong write is so caught at
// once, not only when a read op happens to look. At the end it releases
// every override and checks that r is empty again.
func RunSequential(r Registry, ops Ops) error {
	var m model.Registry
	var handles []Override
	var ids []int // the model's id of each override, by Set position
	fail := func(i int, format string, args ...any) error {
		return fmt.Errorf("after op %d (%v): %s\nops:\n%v", i, ops[i], fmt.Sprintf(format, args...), ops)
	}
	for i, op := range ops {
		switch op.Kind {
		case OpSet:
			handles = append(handles, r.Set(op.Mode, op.Stream))
			ids = append(ids, m.Set(op.Mode, op.Stream))
		case OpRelease, OpReleaseAgain:
			handles[op.Override].Release()
			m.Release(ids[op.Override])
		case OpMode:
			if got, want := r.Mode(op.Stream, op.Mode), m.Mode(op.Stream, op.Mode); got != want {
				return fail(i, "Mode(%v, %v) = %v, want %v", op.Stream, op.Mode, got, want)
			}
		case OpResolve:
			if got, want := r.Resolve(op.Stream), m.Resolve(op.Stream); got != want {
				return fail(i, "Resolve(%v) = %v, want %v", op.Stream, got, want)
			}
		case OpLive:
			if got, want := r.Live(op.Mode), m.Live(op.Mode); got != want {
				return fail(i, "Live(%v) = %d, want %d", op.Mode, got, want)
			}
		case OpSetProcessMode:
			if got, want := r.SetProcessMode(op.Process), m.SetProcessMode(op.Process); got != want {
				return fail(i, "SetProcessMode(%v) = %v, want %v", op.Process, got, want)
			}
		case OpProcessMode:
			if got, want := r.ProcessMode(), m.Process; got != want {
				return fail(i, "ProcessMode() = %v, want %v", got, want)
			}
		default:
			return fail(i, "unknown op kind %d", op.Kind)
		}
		if msg := Compare(r, &m); msg != "" {
			return fail(i, "%s", msg)
		}
	}
	for _, h := range handles {
		h.Release()
	}
	for _, id := range ids {
		m.Release(id)
	}
	if msg := Compare(r, &m); msg != "" {
		return fmt.Errorf("after releasing every override: %s\nops:\n%v", msg, ops)
	}
	return nil
}

// Compare reads everything r can tell about [Streams] and compares it with
// m. It returns "" when they agree, else the first difference.
func Compare(r Registry, m *model.Registry) string {
	for _, s := range Streams {
		for _, def := range []registry.StreamMode{registry.Execute, registry.Discard} {
			if got, want := r.Mode(s, def), m.Mode(s, def); got != want {
				return fmt.Sprintf("Mode(%v, %v) = %v, want %v", s, def, got, want)
			}
		}
		if got, want := r.Resolve(s), m.Resolve(s); got != want {
			return fmt.Sprintf("Resolve(%v) = %v, want %v", s, got, want)
		}
	}
	for _, mode := range []registry.StreamMode{registry.Execute, registry.Discard} {
		if got, want := r.Live(mode), m.Live(mode); got != want {
			return fmt.Sprintf("Live(%v) = %d, want %d", mode, got, want)
		}
	}
	if got, want := r.ProcessMode(), m.Process; got != want {
		return fmt.Sprintf("ProcessMode() = %v, want %v", got, want)
	}
	return ""
}
