package fuzz

import (
	"fmt"
	"strings"

	"github.com/streamgate/streamgate/registry"
)

// opKind is the kind of an [regOp]: one method of [registryAPI] or [override].
type opKind uint8

// The kinds of registry operations. There are exactly eight plain ones, so a
// decoder reads a kind from the low three bits of a byte; opBurst is a Set
// kind byte with bit 7 set.
const (
	opSet            opKind = iota // Set(Mode, Stream)
	opRelease                      // Release of a live override
	opReleaseAgain                 // Release of an override already released
	opMode                         // Mode(Stream, Mode)
	opResolve                      // Resolve(Stream)
	opLive                         // Live(Mode)
	opSetProcessMode               // SetProcessMode(Process)
	opProcessMode                  // ProcessMode()
	// opBurst opens Count overrides at once, one Set after another (see
	// [burstEntry]), so that the registry's trie grows several levels deep. It
	// counts as one Set: a Release of it releases all of them, in a
	// scattered order ([releaseOrder]).
	opBurst
)

// burstFlag, in the kind byte of a Set, makes it an [opBurst].
const burstFlag = 0x80

// maxBursts is how many [opBurst]s one goroutine's ops hold at most; past
// it a Set with the burst flag is a plain Set. Each burst opens and checks
// hundreds of overrides against the model, so an input of nothing but
// bursts would take seconds (the fuzzing engine counts it as hung).
const maxBursts = 4

// burstEntry is what the i-th override of a burst of n sets. The burst's byte
// picks n, 100 to 354, and the modes; most of its streams are outside
// [streams] (service 3 and 4, many stream ids), and every 50th is one of
// streams, so a burst nests inside the overrides the other ops read.
func burstEntry(a byte, i int) (registry.StreamMode, registry.ServiceStream) {
	mode := registry.StreamMode(a&1) ^ registry.StreamMode(b2i(i%3 == 0))
	if i%50 == 0 {
		return mode, streams[i/50%len(streams)]
	}
	return mode, registry.ServiceStream{Service: registry.ServiceID(3 + i%2), Stream: registry.StreamID(i)}
}

// burstCount is how many overrides a burst with byte a opens.
func burstCount(a byte) int { return 100 + 2*int(a>>1) }

// releaseOrder returns the order in which a Release of a burst of n
// releases its overrides: position j releases the override j*7919 mod n,
// a permutation (7919 is a prime above any n) that neither follows nor
// reverses the order of the Sets.
func releaseOrder(n int) []int {
	order := make([]int, n)
	for j := range order {
		order[j] = j * 7919 % n
	}
	return order
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// streams are the streams decoded ops use: two stream ids on each of two
// services, so the same stream id appears on two services.
var streams = [4]registry.ServiceStream{
	{Service: 1, Stream: 1},
	{Service: 1, Stream: 2},
	{Service: 2, Stream: 1},
	{Service: 2, Stream: 2},
}

// regOp is one call on a [registryAPI] or on an [override] it returned. Which
// fields mean something depends on Kind.
type regOp struct {
	Kind opKind
	// Mode is what Set sets, Mode's default, or the mode Live counts.
	Mode registry.StreamMode
	// Stream is the stream of Set, Mode and Resolve. In a [history] a
	// Release carries the released override's stream and mode too.
	Stream registry.ServiceStream
	// Process is SetProcessMode's argument.
	Process registry.ProcessMode
	// Override names an override: for Set the one it creates, for Release
	// the one released. In an [regOps] sequence it is the position of the
	// override's Set among all Sets; in a [program] among its goroutine's
	// Sets; in a [history], a handle unique to the run.
	Override int
	// Arg is an opBurst's byte: see [burstEntry] and [burstCount].
	Arg byte
	// Shared marks a Release in a [program] that releases an override set
	// by any goroutine: at run time, the one at position Override modulo
	// their number among all overrides set so far, in the order their Sets
	// returned. Nothing is released when there are none yet.
	Shared bool
}

// String formats op as the Go call it stands for, naming overrides o0, o1…
func (op regOp) String() string {
	switch op.Kind {
	case opSet:
		return fmt.Sprintf("o%d := Set(%v, %v)", op.Override, op.Mode, op.Stream)
	case opRelease:
		if op.Shared {
			return fmt.Sprintf("shared[%d].Release()", op.Override)
		}
		return fmt.Sprintf("o%d.Release()", op.Override)
	case opReleaseAgain:
		return fmt.Sprintf("o%d.Release() // again", op.Override)
	case opBurst:
		return fmt.Sprintf("o%d := Burst(%d overrides, arg %#x)", op.Override, burstCount(op.Arg), op.Arg)
	case opMode:
		return fmt.Sprintf("Mode(%v, %v)", op.Stream, op.Mode)
	case opResolve:
		return fmt.Sprintf("Resolve(%v)", op.Stream)
	case opLive:
		return fmt.Sprintf("Live(%v)", op.Mode)
	case opSetProcessMode:
		return fmt.Sprintf("SetProcessMode(%v)", op.Process)
	case opProcessMode:
		return "ProcessMode()"
	}
	return fmt.Sprintf("Op{Kind: %d}", op.Kind)
}

// regOps is a sequence of operations on one registry, run in order.
type regOps []regOp

// String lists the ops one a line, numbered from 0.
func (ops regOps) String() string { return listOps(ops) }

// listOps formats ops one a line, numbered from 0: the String of regOps
// and sliceOps.
func listOps[T any](ops []T) string {
	var b strings.Builder
	for i, op := range ops {
		fmt.Fprintf(&b, "%3d  %v\n", i, op)
	}
	return b.String()
}

// overrides tracks, while decoding or encoding one goroutine's ops, which of
// its overrides are live and which released.
type overrides struct {
	n        int   // Sets so far
	bursts   int   // opBursts so far
	noBursts bool  // set: no more opBursts at all (see maxBursts)
	live     []int // live overrides, by Set position, oldest first
	released []int // released overrides, in release order
}

// maxBursts is how many opBursts these ops may hold: [maxBursts], or 0
// once noBursts is set.
func (o *overrides) maxBursts() int {
	if o.noBursts {
		return 0
	}
	return maxBursts
}

func (o *overrides) set() int {
	o.n++
	o.live = append(o.live, o.n-1)
	return o.n - 1
}

func (o *overrides) release(i int) {
	for j, x := range o.live {
		if x == i {
			o.live = append(o.live[:j:j], o.live[j+1:]...)
			o.released = append(o.released, i)
			return
		}
	}
}

// decodeOp decodes the op with kind byte k and argument byte a, tracking
// the goroutine's overrides in o. It reports false for a Release with
// nothing to release: such bytes decode to no op.
func decodeOp(k, a byte, o *overrides, shared bool) (regOp, bool) {
	op := regOp{Kind: opKind(k & 7)}
	if op.Kind == opSet && k&burstFlag != 0 && o.bursts < o.maxBursts() {
		op.Kind = opBurst
		o.bursts++
	}
	switch op.Kind {
	case opBurst:
		op.Arg = a
		op.Override = o.set()
	case opSet:
		op.Stream = streams[a&3]
		op.Mode = registry.StreamMode(a >> 2 & 1)
		op.Override = o.set()
	case opRelease:
		if shared {
			op.Shared = true
			op.Override = int(a)
			break
		}
		if len(o.live) == 0 {
			return op, false
		}
		op.Override = o.live[int(a)%len(o.live)]
		o.release(op.Override)
	case opReleaseAgain:
		if len(o.released) == 0 {
			return op, false
		}
		op.Override = o.released[int(a)%len(o.released)]
	case opMode:
		op.Stream = streams[a&3]
		op.Mode = registry.StreamMode(a >> 2 & 1)
	case opResolve:
		op.Stream = streams[a&3]
	case opLive:
		op.Mode = registry.StreamMode(a & 1)
	case opSetProcessMode:
		op.Process = registry.ProcessMode(a % 3)
	case opProcessMode:
	}
	return op, true
}

// encodeOp returns the kind and argument bytes that decodeOp turns into op,
// updating o as decodeOp would. It panics if op cannot be decoded from any
// bytes in o's state (a Release of an override that is not live, say).
func encodeOp(op regOp, o *overrides) (k, a byte) {
	k = byte(op.Kind)
	switch op.Kind {
	case opBurst:
		if o.bursts >= o.maxBursts() {
			panic(fmt.Sprintf("fuzz: encoding %v: more than %d bursts", op, o.maxBursts()))
		}
		o.bursts++
		k, a = byte(opSet)|burstFlag, op.Arg
		if i := o.set(); i != op.Override {
			panic(fmt.Sprintf("fuzz: encoding %v: the next override is o%d", op, i))
		}
	case opSet:
		a = byte(streamIndex(op.Stream)) | byte(op.Mode)<<2
		if i := o.set(); i != op.Override {
			panic(fmt.Sprintf("fuzz: encoding %v: the next override is o%d", op, i))
		}
	case opRelease:
		if op.Shared {
			return k, byte(op.Override)
		}
		a = byte(position(o.live, op.Override, op))
		o.release(op.Override)
	case opReleaseAgain:
		a = byte(position(o.released, op.Override, op))
	case opMode:
		a = byte(streamIndex(op.Stream)) | byte(op.Mode)<<2
	case opResolve:
		a = byte(streamIndex(op.Stream))
	case opLive:
		a = byte(op.Mode)
	case opSetProcessMode:
		a = byte(op.Process)
	}
	return k, a
}

func position(list []int, x int, op regOp) int {
	for i, y := range list {
		if y == x {
			return i
		}
	}
	panic(fmt.Sprintf("fuzz: cannot encode %v here", op))
}

func streamIndex(s registry.ServiceStream) int {
	for i, t := range streams {
		if t == s {
			return i
		}
	}
	panic(fmt.Sprintf("fuzz: stream %v is not one of Streams", s))
}

// maxOps is the most ops [decodeOps] and [decodeSliceOps] decode.
const maxOps = 256

// decodeOps decodes data into a sequence of ops on one registry, two bytes
// an op: a kind (its low three bits) and an argument. A Release picks a
// live override, any of them, and a ReleaseAgain one already released; one
// with none to pick decodes to nothing. A trailing odd byte is ignored.
// Every byte string decodes to something, the empty one to no ops. Only the
// first [maxOps] ops count: each op is followed by a full comparison of
// every stream, and longer inputs would only slow the fuzzer down.
func decodeOps(data []byte) regOps {
	var ops regOps
	var o overrides
	for i := 0; i+1 < len(data) && len(ops) < maxOps; i += 2 {
		if op, ok := decodeOp(data[i], data[i+1], &o, false); ok {
			ops = append(ops, op)
		}
	}
	return ops
}

// encodeOps returns bytes that [decodeOps] decodes to ops: the way seed
// corpora are written. It panics if no bytes decode to ops, for instance
// when a Release names an override that is not live.
func encodeOps(ops regOps) []byte {
	var data []byte
	var o overrides
	for _, op := range ops {
		k, a := encodeOp(op, &o)
		data = append(data, k, a)
	}
	return data
}
