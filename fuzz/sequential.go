package fuzz

import (
	"fmt"

	"github.com/streamgate/streamgate/internal/oracle"
	"github.com/streamgate/streamgate/registry"
)

// runSequential applies ops in order to r and to the sequential model, and
// returns an error describing the first difference, or nil. r must be new:
// empty, under [registry.ProcessExecute].
//
// Besides each read op's own answer it compares, after every op, all that
// can be read: Mode of every stream in [streams] under both defaults,
// Resolve, Live of both modes and ProcessMode. A wrong write is so caught at
// once, not only when a read op happens to look. After an [opBurst], and a
// Release of one, it also compares Mode of every stream the burst set. At
// the end it releases every override and checks that r is empty again.
func runSequential(r registryAPI, ops regOps) error {
	var m oracle.Registry
	// By Set position: the overrides each Set (one) or Burst (many) made,
	// and the model's ids of them.
	var handles [][]override
	var ids [][]int
	fail := func(i int, format string, args ...any) error {
		return fmt.Errorf("after op %d (%v): %s\nops:\n%v", i, ops[i], fmt.Sprintf(format, args...), ops)
	}
	for i, op := range ops {
		switch op.Kind {
		case opSet:
			handles = append(handles, []override{r.Set(op.Mode, op.Stream)})
			ids = append(ids, []int{m.Set(op.Mode, op.Stream)})
		case opBurst:
			n := burstCount(op.Arg)
			hs, is := make([]override, n), make([]int, n)
			for j := range n {
				mode, s := burstEntry(op.Arg, j)
				hs[j], is[j] = r.Set(mode, s), m.Set(mode, s)
			}
			handles, ids = append(handles, hs), append(ids, is)
			if msg := compareBurst(r, &m, op.Arg); msg != "" {
				return fail(i, "%s", msg)
			}
		case opRelease, opReleaseAgain:
			hs, is := handles[op.Override], ids[op.Override]
			for _, j := range releaseOrder(len(hs)) {
				hs[j].Release()
				m.Release(is[j])
			}
			if len(hs) > 1 {
				if msg := compareBurst(r, &m, ops[burstOp(ops, op.Override)].Arg); msg != "" {
					return fail(i, "%s", msg)
				}
			}
		case opMode:
			if got, want := r.Mode(op.Stream, op.Mode), m.Mode(op.Stream, op.Mode); got != want {
				return fail(i, "Mode(%v, %v) = %v, want %v", op.Stream, op.Mode, got, want)
			}
		case opResolve:
			if got, want := r.Resolve(op.Stream), m.Resolve(op.Stream); got != want {
				return fail(i, "Resolve(%v) = %v, want %v", op.Stream, got, want)
			}
		case opLive:
			if got, want := r.Live(op.Mode), m.Live(op.Mode); got != want {
				return fail(i, "Live(%v) = %d, want %d", op.Mode, got, want)
			}
		case opSetProcessMode:
			if got, want := r.SetProcessMode(op.Process), m.SetProcessMode(op.Process); got != want {
				return fail(i, "SetProcessMode(%v) = %v, want %v", op.Process, got, want)
			}
		case opProcessMode:
			if got, want := r.ProcessMode(), m.Process; got != want {
				return fail(i, "ProcessMode() = %v, want %v", got, want)
			}
		default:
			return fail(i, "unknown op kind %d", op.Kind)
		}
		if msg := compare(r, &m); msg != "" {
			return fail(i, "%s", msg)
		}
	}
	for i, hs := range handles {
		for j, h := range hs {
			h.Release()
			m.Release(ids[i][j])
		}
	}
	if msg := compare(r, &m); msg != "" {
		return fmt.Errorf("after releasing every override: %s\nops:\n%v", msg, ops)
	}
	return nil
}

// compare reads everything r can tell about [streams] and compares it with
// m. It returns "" when they agree, else the first difference.
func compare(r registryAPI, m *oracle.Registry) string {
	for _, s := range streams {
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

// compareBurst compares Mode of every stream of a burst with byte a under
// both defaults. It returns "" when r and m agree, else the first
// difference.
func compareBurst(r registryAPI, m *oracle.Registry, a byte) string {
	for j := range burstCount(a) {
		_, s := burstEntry(a, j)
		for _, def := range []registry.StreamMode{registry.Execute, registry.Discard} {
			if got, want := r.Mode(s, def), m.Mode(s, def); got != want {
				return fmt.Sprintf("Mode(%v, %v) = %v, want %v (a stream of the burst)", s, def, got, want)
			}
		}
	}
	return ""
}

// burstOp returns the index in ops of the Set or Burst at Set position pos.
func burstOp(ops regOps, pos int) int {
	for i, op := range ops {
		if (op.Kind == opSet || op.Kind == opBurst) && op.Override == pos {
			return i
		}
	}
	panic(fmt.Sprintf("fuzz: no Set at position %d", pos))
}
