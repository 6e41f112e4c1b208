package fuzz

import (
	"fmt"
	"hash/maphash"
	"time"

	"github.com/anishathalye/porcupine"

	"github.com/streamgate/streamgate/internal/oracle"
	"github.com/streamgate/streamgate/registry"
)

// registryModel is the porcupine model of a registry: the sequential model of
// internal/oracle stepped by the calls of a [history], partitioned as
// [partition] says. Inputs are [call] values and outputs their Out.
var registryModel = porcupine.Model{
	Partition: partition,
	Init:      func() any { return newLinState(&oracle.Registry{}) },
	Step:      step,
	Equal:     func(a, b any) bool { return a.(*linState).key == b.(*linState).key },
	Hash:      func(s any) uint64 { return maphash.String(hashSeed, s.(*linState).key) },
	DescribeOperation: func(in, _ any) string {
		return in.(call).String()
	},
	DescribeState: func(s any) string { return s.(*linState).key },
}

var hashSeed = maphash.MakeSeed()

// linState is one state of the model: never modified once made, as
// porcupine requires.
type linState struct {
	m   *oracle.Registry
	key string // m.Key()
}

func newLinState(m *oracle.Registry) *linState { return &linState{m: m, key: m.Key()} }

// step applies call in to state s and reports whether its output agrees.
// Reads return s itself; writes a modified copy.
func step(s, in, out any) (bool, any) {
	st, c, got := s.(*linState), in.(call), out.(int)
	m := st.m
	switch c.Op.Kind {
	case opSet:
		m = m.Clone()
		m.Insert(oracle.Override{ID: c.Op.Override, Mode: c.Op.Mode, Stream: c.Op.Stream})
		return true, newLinState(m)
	case opRelease, opReleaseAgain:
		m = m.Clone()
		if !m.Release(c.Op.Override) {
			return true, st // already released: nothing changes
		}
		return true, newLinState(m)
	case opMode:
		return got == int(m.Mode(c.Op.Stream, c.Op.Mode)), st
	case opResolve:
		return got == int(m.Resolve(c.Op.Stream)), st
	case opLive:
		return got == m.Live(c.Op.Mode), st
	case opSetProcessMode:
		if got != int(m.Process) {
			return false, st
		}
		m = m.Clone()
		m.SetProcessMode(c.Op.Process)
		return true, newLinState(m)
	case opProcessMode:
		return got == int(m.Process), st
	}
	panic(fmt.Sprintf("fuzz: unknown op kind %d", c.Op.Kind))
}

// partition splits a registry history into independent parts that can be
// checked one at a time: porcupine's cost grows with the number of
// concurrent calls, so small parts are much faster to check.
//
// Splitting is sound only along independent objects (linearizability is
// local: a history of independent objects is linearizable exactly when the
// history of each is). The registry's state is one list of overrides per
// stream plus the process mode, and each kind of call touches:
//
//   - Set, Release and Mode: one stream's list;
//   - SetProcessMode and ProcessMode: the process mode;
//   - Resolve(s): s's list and the process mode;
//   - Live: every stream's list.
//
// So partition does not simply cut by stream, which would drop Resolve and
// Live or check them against a part of the state they do not see. It joins
// the objects that a call touches together (union-find) and returns one part
// per joined group: with no Resolve or Live in a history, one part per
// stream plus one for the process mode; a Resolve ties its stream to the
// process mode; a Live ties all the streams of the history together. Every
// part is then a history of an object independent of the others, and the
// whole history is linearizable exactly when every part is. Release calls
// carry their override's stream, so a Release and its Set always land in
// the same part.
func partition(history []porcupine.Operation) [][]porcupine.Operation {
	const process = 0 // object 0 is the process mode; streams are 1…
	objects := map[registry.ServiceStream]int{}
	parent := []int{process}
	object := func(s registry.ServiceStream) int {
		if i, ok := objects[s]; ok {
			return i
		}
		objects[s] = len(parent)
		parent = append(parent, len(parent))
		return len(parent) - 1
	}
	var find func(int) int
	find = func(i int) int {
		if parent[i] != i {
			parent[i] = find(parent[i])
		}
		return parent[i]
	}
	union := func(a, b int) { parent[find(a)] = find(b) }
	// First pass: name every object, join the ones calls tie. Live calls
	// get an object of their own, joined afterwards to every stream.
	live := -1
	for _, op := range history {
		c := op.Input.(call)
		switch c.Op.Kind {
		case opSet, opRelease, opReleaseAgain, opMode:
			object(c.Op.Stream)
		case opResolve:
			union(object(c.Op.Stream), process)
		case opLive:
			if live < 0 {
				live = len(parent)
				parent = append(parent, live)
			}
		}
	}
	if live >= 0 {
		for _, i := range objects {
			union(i, live)
		}
	}
	// Second pass: one part per group, calls kept in history order.
	parts := map[int]int{} // group root → index in out
	var out [][]porcupine.Operation
	for _, op := range history {
		c := op.Input.(call)
		o := process
		switch c.Op.Kind {
		case opSet, opRelease, opReleaseAgain, opMode, opResolve:
			o = object(c.Op.Stream)
		case opLive:
			o = live
		}
		root := find(o)
		i, ok := parts[root]
		if !ok {
			i = len(out)
			parts[root] = i
			out = append(out, nil)
		}
		out[i] = append(out[i], op)
	}
	return out
}

// Operations turns h into porcupine's form.
func (h history) Operations() []porcupine.Operation {
	ops := make([]porcupine.Operation, len(h))
	for i, c := range h {
		ops[i] = porcupine.Operation{ClientId: c.Goroutine, Input: c, Output: c.Out, Call: c.Start, Return: c.End}
	}
	return ops
}

// checkHistory checks h for linearizability against [registryModel]:
// porcupine.Ok when it is linearizable, porcupine.Illegal when it is not,
// porcupine.Unknown when the check ran out of time (0: no limit).
func checkHistory(h history, timeout time.Duration) porcupine.CheckResult {
	return porcupine.CheckOperationsTimeout(registryModel, h.Operations(), timeout)
}
