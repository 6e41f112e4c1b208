package fuzz

import (
	"fmt"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/streamgate/streamgate/lockfree"
	"github.com/streamgate/streamgate/registry"
)

// call is one recorded call: which goroutine made it, what it was, what it
// returned, and when it started and ended on the session's logical clock.
type call struct {
	Goroutine int
	// Op is the op as run. Its Override is a handle unique to the session,
	// and a Release carries the released override's Stream and Mode.
	Op regOp
	// Out is what a read returned: a StreamMode for Mode and Resolve, a
	// count for Live, a ProcessMode for SetProcessMode (the previous one)
	// and ProcessMode. It is 0 for Set and Release.
	Out        int
	Start, End int64
}

// String formats c as "[start,end] g1: Mode(1/1, Discard) -> Execute".
func (c call) String() string {
	op := c.Op
	op.Shared = false
	s := fmt.Sprintf("[%d,%d] g%d: %v", c.Start, c.End, c.Goroutine, op)
	switch c.Op.Kind {
	case opRelease, opReleaseAgain:
		s += fmt.Sprintf(" (%v on %v)", c.Op.Mode, c.Op.Stream)
	case opMode, opResolve:
		s += fmt.Sprintf(" -> %v", registry.StreamMode(c.Out))
	case opLive:
		s += fmt.Sprintf(" -> %d", c.Out)
	case opSetProcessMode, opProcessMode:
		s += fmt.Sprintf(" -> %v", registry.ProcessMode(c.Out))
	}
	return s
}

// history is the calls of one session, in order of their start.
type history []call

// String lists the calls one a line.
func (h history) String() string {
	var b strings.Builder
	for _, c := range h {
		b.WriteString(c.String())
		b.WriteByte('\n')
	}
	return b.String()
}

// handle is an override a session set, with what the history needs of it.
type handle struct {
	o      override
	id     int
	mode   registry.StreamMode
	stream registry.ServiceStream
	// members are a burst's overrides (then o is nil): an opBurst and a
	// Release of it are recorded as one call per member.
	members []*handle
}

// session runs ops on one registry for a fixed number of logical
// goroutines (clients) and records every call. Different goroutines' Do may
// run concurrently; one goroutine's calls must not overlap each other.
// The clock is one atomic counter read before and after each call, so real
// time order between calls (including the order that synchronization
// between goroutines imposes) shows in the timestamps.
type session struct {
	r     registryAPI
	clock atomic.Int64            // logical time; each read advances it
	ids   atomic.Int64            // the last handle id given out
	pool  lockfree.Slice[*handle] // every override set so far, in the order the Sets returned
	own   [][]*handle             // own[g]: goroutine g's overrides by Set position; only g touches it
	calls [][]call                // calls[g]: goroutine g's calls; only g touches it
}

// newSession returns a session on r for goroutines 0 to goroutines-1.
func newSession(r registryAPI, goroutines int) *session {
	return &session{r: r, own: make([][]*handle, goroutines), calls: make([][]call, goroutines)}
}

// Do runs op as goroutine g and records it. A Set's op.Override is ignored:
// the override takes the next position among g's. A Release that is not
// Shared releases g's override at position op.Override; a Shared one
// releases any goroutine's (see [regOp]), or does nothing, and records nothing,
// when no override was set yet. An opBurst is recorded as one Set per
// override it opens, and the Release of a burst as one Release per override,
// in [releaseOrder]; a Shared Release picks one override, never a whole
// burst.
func (s *session) Do(g int, op regOp) {
	switch op.Kind {
	case opBurst:
		n := burstCount(op.Arg)
		group := &handle{members: make([]*handle, n)}
		for j := range n {
			mode, st := burstEntry(op.Arg, j)
			group.members[j] = s.do(g, regOp{Kind: opSet, Mode: mode, Stream: st})
		}
		s.own[g] = append(s.own[g], group)
		return
	case opRelease, opReleaseAgain:
		if !op.Shared {
			if h := s.own[g][op.Override]; h.members != nil {
				for _, j := range releaseOrder(len(h.members)) {
					s.release(g, op.Kind, h.members[j])
				}
				return
			}
		}
	}
	h := s.do(g, op)
	if op.Kind == opSet {
		s.own[g] = append(s.own[g], h)
	}
}

// release runs and records a Release (of kind) of h as goroutine g.
func (s *session) release(g int, kind opKind, h *handle) {
	c := call{Goroutine: g, Op: regOp{Kind: kind, Override: h.id, Mode: h.mode, Stream: h.stream}}
	s.record(g, &c, func() { h.o.Release() })
	s.calls[g] = append(s.calls[g], c)
}

// do runs one call as goroutine g and records it, returning a Set's new
// handle.
func (s *session) do(g int, op regOp) *handle {
	c := call{Goroutine: g, Op: op}
	c.Op.Shared = false
	var h *handle
	switch op.Kind {
	case opSet:
		h = &handle{id: int(s.ids.Add(1)), mode: op.Mode, stream: op.Stream}
		c.Op.Override = h.id
	case opRelease, opReleaseAgain:
		if op.Shared {
			all := s.pool.Load()
			if len(all) == 0 {
				return nil
			}
			h = all[op.Override%len(all)]
		} else {
			h = s.own[g][op.Override]
		}
		c.Op.Override, c.Op.Mode, c.Op.Stream = h.id, h.mode, h.stream
	}
	s.record(g, &c, func() {
		switch op.Kind {
		case opSet:
			h.o = s.r.Set(op.Mode, op.Stream)
		case opRelease, opReleaseAgain:
			h.o.Release()
		case opMode:
			c.Out = int(s.r.Mode(op.Stream, op.Mode))
		case opResolve:
			c.Out = int(s.r.Resolve(op.Stream))
		case opLive:
			c.Out = s.r.Live(op.Mode)
		case opSetProcessMode:
			c.Out = int(s.r.SetProcessMode(op.Process))
		case opProcessMode:
			c.Out = int(s.r.ProcessMode())
		default:
			panic(fmt.Sprintf("fuzz: unknown op kind %d", op.Kind))
		}
	})
	if op.Kind == opSet {
		s.pool.Append(h) // after End: a Release found here starts later
	}
	s.calls[g] = append(s.calls[g], c)
	return h
}

// record runs call between two readings of the clock, c.Start and c.End.
func (s *session) record(g int, c *call, call func()) {
	c.Start = s.clock.Add(1)
	// Yield inside the recorded interval, before or after the call (or
	// both, or neither: a fixed pattern over g's calls), so that other
	// goroutines' calls start and end within it. Widening an interval
	// weakens no check that matters: the call still happens inside it. But
	// without this, on few CPUs, calls of ~100ns barely ever overlap.
	jitter := uint(len(s.calls[g])*7+g) % 4
	if jitter&1 != 0 {
		runtime.Gosched()
	}
	call()
	if jitter&2 != 0 {
		runtime.Gosched()
	}
	c.End = s.clock.Add(1)
}

// History returns every recorded call, by start. Call it only when no Do
// is running.
func (s *session) History() history {
	var h history
	for _, cs := range s.calls {
		h = append(h, cs...)
	}
	slices.SortFunc(h, func(a, b call) int { return int(a.Start - b.Start) })
	return h
}

// ReleaseAll releases every override the session set, without recording.
// Call it only when no Do is running.
func (s *session) ReleaseAll() {
	for _, h := range s.pool.Load() {
		h.o.Release()
	}
}

// run runs p on r, one goroutine per entry of p, all started together and
// yielding the processor between ops so that their calls interleave, and
// returns the history. Goroutines may release one override at once.
// Afterwards run releases every override
// (unrecorded), so r has no live override when it returns.
func run(r registryAPI, p program) history {
	s := newSession(r, len(p))
	start := make(chan struct{})
	var wg sync.WaitGroup
	for g, ops := range p {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			for _, op := range ops {
				s.Do(g, op)
				runtime.Gosched()
			}
		}()
	}
	close(start)
	wg.Wait()
	s.ReleaseAll()
	return s.History()
}
