package fuzz

import (
	"fmt"
	"slices"
	"strings"

	"github.com/streamgate/streamgate/lockfree"
)

// sliceKind is the kind of a [sliceOp].
type sliceKind uint8

// The kinds of lockfree.Slice operations.
const (
	sliceAppend sliceKind = iota // Append(Elems...)
	sliceDelete                  // DeleteFunc(Pred)
	sliceLoad                    // Load(), kept as a snapshot
	sliceLen                     // Len()
)

// predKind is the kind of a [pred].
type predKind uint8

// The predicates DeleteFunc is given.
const (
	predEqual predKind = iota // x == A
	predMod                   // x%A == B
	predLess                  // x < A
	predNone                  // false
	predAll                   // true
)

// pred is a side-effect-free predicate on small ints, with a readable
// String.
type pred struct {
	Kind predKind
	A, B int
}

// Match reports whether x satisfies p.
func (p pred) Match(x int) bool {
	switch p.Kind {
	case predEqual:
		return x == p.A
	case predMod:
		return x%p.A == p.B
	case predLess:
		return x < p.A
	case predAll:
		return true
	}
	return false
}

func (p pred) String() string {
	switch p.Kind {
	case predEqual:
		return fmt.Sprintf("x == %d", p.A)
	case predMod:
		return fmt.Sprintf("x%%%d == %d", p.A, p.B)
	case predLess:
		return fmt.Sprintf("x < %d", p.A)
	case predAll:
		return "true"
	}
	return "false"
}

// sliceOp is one call on a lockfree.Slice[int].
type sliceOp struct {
	Kind  sliceKind
	Elems []int // Append's arguments
	Pred  pred  // DeleteFunc's predicate
}

func (op sliceOp) String() string {
	switch op.Kind {
	case sliceAppend:
		s := fmt.Sprint(op.Elems)
		return "Append(" + strings.ReplaceAll(s[1:len(s)-1], " ", ", ") + ")"
	case sliceDelete:
		return fmt.Sprintf("DeleteFunc(func(x int) bool { return %v })", op.Pred)
	case sliceLoad:
		return "Load()"
	case sliceLen:
		return "Len()"
	}
	return fmt.Sprintf("SliceOp{Kind: %d}", op.Kind)
}

// sliceOps is a sequence of ops on one lockfree.Slice[int].
type sliceOps []sliceOp

// String lists the ops one a line, numbered from 0.
func (ops sliceOps) String() string { return listOps(ops) }

// decodeSliceOps decodes data into slice ops. Each op starts with a byte
// whose low two bits are its kind. Append takes (byte>>2)%4 elements, one
// byte each, modulo 8 (small values, so deletes hit); DeleteFunc takes one
// byte: the predicate kind modulo 5 in its low three bits, A and B above
// them. Every byte string decodes to something; a truncated op is dropped,
// and so is every op after the first [maxOps].
func decodeSliceOps(data []byte) sliceOps {
	var ops sliceOps
	for len(data) > 0 && len(ops) < maxOps {
		b := data[0]
		data = data[1:]
		op := sliceOp{Kind: sliceKind(b & 3)}
		switch op.Kind {
		case sliceAppend:
			n := int(b>>2) % 4
			if len(data) < n {
				return ops
			}
			op.Elems = make([]int, n)
			for i := range op.Elems {
				op.Elems[i] = int(data[i] % 8)
			}
			data = data[n:]
		case sliceDelete:
			if len(data) < 1 {
				return ops
			}
			p := data[0]
			data = data[1:]
			op.Pred = pred{Kind: predKind(p & 7 % 5), A: int(p>>3&7) % 8}
			if op.Pred.Kind == predMod {
				op.Pred.A = 1 + int(p>>3&3)       // 1…4
				op.Pred.B = int(p>>5) % op.Pred.A // 0…A-1
			}
		}
		ops = append(ops, op)
	}
	return ops
}

// encodeSliceOps returns bytes that [decodeSliceOps] decodes to ops. It
// panics when there are none, for instance for an element outside 0…7.
func encodeSliceOps(ops sliceOps) []byte {
	var data []byte
	for _, op := range ops {
		switch op.Kind {
		case sliceAppend:
			if len(op.Elems) > 3 {
				panic("fuzz: Append of more than 3 elements")
			}
			data = append(data, byte(len(op.Elems))<<2)
			for _, x := range op.Elems {
				if x < 0 || x > 7 {
					panic(fmt.Sprintf("fuzz: element %d outside 0…7", x))
				}
				data = append(data, byte(x))
			}
		case sliceDelete:
			p := op.Pred
			a := byte(p.Kind)
			switch p.Kind {
			case predMod:
				a |= byte(p.A-1)<<3 | byte(p.B)<<5
			case predEqual, predLess:
				a |= byte(p.A) << 3
			}
			data = append(data, byte(op.Kind), a)
		default:
			data = append(data, byte(op.Kind))
		}
	}
	if !slices.EqualFunc(decodeSliceOps(data), ops, func(a, b sliceOp) bool { return a.String() == b.String() }) {
		panic(fmt.Sprintf("fuzz: cannot encode\n%v", ops))
	}
	return data
}

// maxSnapshots caps the snapshots runSlice keeps checking, so that a long
// input costs linear time.
const maxSnapshots = 16

// runSlice applies ops to a new lockfree.Slice[int] and to a plain slice,
// and returns an error describing the first difference, or nil. After every
// op it compares Load and Len, and checks that every snapshot an earlier
// Load returned still holds what it held then.
func runSlice(ops sliceOps) error {
	var s lockfree.Slice[int]
	var want []int
	type snapshot struct{ got, was []int }
	var snaps []snapshot
	fail := func(i int, format string, args ...any) error {
		return fmt.Errorf("after op %d (%v): %s\nops:\n%v", i, ops[i], fmt.Sprintf(format, args...), ops)
	}
	for i, op := range ops {
		switch op.Kind {
		case sliceAppend:
			s.Append(op.Elems...)
			want = append(want, op.Elems...)
		case sliceDelete:
			n := s.DeleteFunc(op.Pred.Match)
			before := len(want)
			want = slices.DeleteFunc(want, op.Pred.Match)
			if n != before-len(want) {
				return fail(i, "DeleteFunc = %d, want %d", n, before-len(want))
			}
		case sliceLoad:
			if got := s.Load(); len(snaps) < maxSnapshots {
				snaps = append(snaps, snapshot{got, slices.Clone(got)})
			}
		case sliceLen:
			if got := s.Len(); got != len(want) {
				return fail(i, "Len() = %d, want %d", got, len(want))
			}
		}
		if got := s.Load(); !slices.Equal(got, want) {
			return fail(i, "Load() = %v, want %v", got, want)
		}
		if got := s.Len(); got != len(want) {
			return fail(i, "Len() = %d, want %d", got, len(want))
		}
		for j, sn := range snaps {
			if !slices.Equal(sn.got, sn.was) {
				return fail(i, "snapshot %d changed: %v, was %v", j, sn.got, sn.was)
			}
		}
	}
	return nil
}
