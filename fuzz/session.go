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

// Call is one recorded call: which goroutine made it, what it was, what it
// returned, and when it started and ended on the session's logical clock.
type Call struct {
	Goroutine int
	// Op is the op as run. Its Override is a handle unique to the session,
	// and a Release carries the released override's Stream and Mode.
	Op Op
	// Out is what a read returned: a StreamMode for Mode and Resolve, a
	// count for Live, a ProcessMode for SetProcessMode (the previous one)
	// and ProcessMode. It is 0 for Set and Release.
	Out        int
	Start, End int64
}

// String formats c as "[start,end] g1: Mode(1/1, Discard) -> Execute".
func (c Call) String() string {
	op := c.Op
	op.Shared = false
	s := fmt.Sprintf("[%d,%d] g%d: %v", c.Start, c.End, c.Goroutine, op)
	switch c.Op.Kind {
	case OpRelease, OpReleaseAgain:
		s += fmt.Sprintf(" (%v on %v)", c.Op.Mode, c.Op.Stream)
	case OpMode, OpResolve:
		s += fmt.Sprintf(" -> %v", registry.StreamMode(c.Out))
	case OpLive:
		s += fmt.Sprintf(" -> %d", c.Out)
	case OpSetProcessMode, OpProcessMode:
		s += fmt.Sprintf(" -> %v", registry.ProcessMode(c.Out))
	}
	return s
}

// History is the calls of one session, in order of their start.
type History []Call

// String lists the calls one a line.
func (h History) String() string {
	var b strings.Builder
	for _, c := range h {
		b.WriteString(c.String())
		b.WriteByte('\n')
	}
	return b.String()
}

// handle is an override a session set, with what the history needs of it.
type handle struct {
	o      Override
	id     int
	mode   registry.StreamMode
	stream registry.ServiceStream
	// members are a burst's overrides (then o is nil): an OpBurst and a
	// Release of it are recorded as one call per member.
	members []*handle
}

// Session runs ops on one registry for a fixed number of logical
// goroutines (clients) and records every call. Different goroutines' Do may
// run concurrently; one goroutine's calls must not overlap each other.
// The clock is one atomic counter read before and after each call, so real
// time order between calls (including the order that synchronization
// between goroutines imposes) shows in the timestamps.
type Session struct {
	r     Registry
	clock atomic.Int64            // logical time; each read advances it
	ids   atomic.Int64            // the last handle id given out
	pool  lockfree.Slice[*handle] // every override set so far, in the order the Sets returned
	own   [][]*handle             // own[g]: goroutine g's overrides by Set position; only g touches it
	calls [][]Call                // calls[g]: goroutine g's calls; only g touches it
}

// NewSession returns a session on r for goroutines 0 to goroutines-1.
func NewSession(r Registry, goroutines int) *Session {
	return &Session{r: r, own: make([][]*handle, goroutines), calls: make([][]Call, goroutines)}
}

// Do runs op as goroutine g and records it. A Set's op.Override is ignored:
// the override takes the next position among g's. A Release that is not
// Shared releases g's override at position op.Override; a Shared one
// releases any goroutine's (see [Op]), or does nothing, and records nothing,
// when no override was set yet. An OpBurst is recorded as one Set per
// override it opens, and the Release of a burst as one Release per override,
// in [ReleaseOrder]; a Shared Release picks one override, never a whole
// burst.
func (s *Session) Do(g int, op Op) {
	switch op.Kind {
	case OpBurst:
		n := BurstCount(op.Arg)
		group := &handle{members: make([]*handle, n)}
		for j := range n {
			mode, st := Burst(op.Arg, j)
			group.members[j] = s.do(g, Op{Kind: OpSet, Mode: mode, Stream: st})
		}
		s.own[g] = append(s.own[g], group)
		return
	case OpRelease, OpReleaseAgain:
		if !op.Shared {
			if h := s.own[g][op.Override]; h.members != nil {
				for _, j := range ReleaseOrder(len(h.members)) {
					s.release(g, op.Kind, h.members[j])
				}
				return
			}
		}
	}
	h := s.do(g, op)
	if op.Kind == OpSet {
		s.own[g] = append(s.own[g], h)
	}
}

// release runs and records a Release (of kind) of h as goroutine g.
func (s *Session) release(g int, kind Kind, h *handle) {
	c := Call{Goroutine: g, Op: Op{Kind: kind, Override: h.id, Mode: h.mode, Stream: h.stream}}
	s.record(g, &c, func() { h.o.Release() })
	s.calls[g] = append(s.calls[g], c)
}

// do runs one call as goroutine g and records it, returning a Set's new
// handle.
func (s *Session) do(g int, op Op) *handle {
	c := Call{Goroutine: g, Op: op}
	c.Op.Shared = false
	var h *handle
	switch op.Kind {
	case OpSet:
		h = &handle{id: int(s.ids.Add(1)), mode: op.Mode, stream: op.Stream}
		c.Op.Override = h.id
	case OpRelease, OpReleaseAgain:
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
		case OpSet:
			h.o = s.r.Set(op.Mode, op.Stream)
		case OpRelease, OpReleaseAgain:
			h.o.Release()
		case OpMode:
			c.Out = int(s.r.Mode(op.Stream, op.Mode))
		case OpResolve:
			c.Out = int(s.r.Resolve(op.Stream))
		case OpLive:
			c.Out = s.r.Live(op.Mode)
		case OpSetProcessMode:
			c.Out = int(s.r.SetProcessMode(op.Process))
		case OpProcessMode:
			c.Out = int(s.r.ProcessMode())
		default:
			panic(fmt.Sprintf("fuzz: unknown op kind %d", op.Kind))
		}
	})
	if op.Kind == OpSet {
		s.pool.Append(h) // after End: a Release found here starts later
	}
	s.calls[g] = append(s.calls[g], c)
	return h
}

// record runs call between two readings of the clock, c.Start and c.End.
func (s *Session) record(g int, c *Call, call func()) {
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
func (s *Session) History() History {
	var h History
	for _, cs := range s.calls {
		h = append(h, cs...)
	}
	slices.SortFunc(h, func(a, b Call) int { return int(a.Start - b.Start) })
	return h
}

// ReleaseAll releases every override the session set, without recording.
// Call it only when no Do is running.
func (s *Session) ReleaseAll() {
	for _, h := range s.pool.Load() {
		h.o.Release()
	}
}

// Run runs p on r, one goroutine per entry of p, all started together and
// yielding the processor between ops so that their calls interleave, and
// returns the history. Goroutines may release one override at once.
// Afterwards Run releases every override
// (unrecorded), so r has no live override when it returns.
func Run(r Registry, p Program) History {
	s := NewSession(r, len(p))
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
