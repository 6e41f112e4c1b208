package tune

// An undecided key, from the first caller to its decision: the single
// flight (one tune per key that the others wait for; one tune at a time per
// Tuner, by the token Tuner.measuring) and the call chain (the keys a
// goroutine is tuning, carried in the context its candidates get, so that
// a nested Pick or Run sees a cycle, knows it holds the token, and launches
// where its measurement does).

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/streamgate/streamgate/client"
	"github.com/streamgate/streamgate/gpu"
)

// ErrCycle is returned when a candidate's run needs, directly or through
// other keys, the decision its own tune is making.
var ErrCycle = errors.New("tuning cycle")

// flight is one tune in progress that others wait for.
type flight struct {
	done    chan struct{} // closed when d and err are set
	claimed bool          // guarded by Tuner.mu: a goroutine holding the token measures it
	names   []string      // guarded by Tuner.mu: the candidates it measures
	d       *decision     // written before done is closed
	err     error         // written before done is closed
}

// decideSlow loads op's ranking from the cache, waits for another
// goroutine's tune of it, or measures it.
func (t *Tuner) decideSlow(ctx context.Context, op Op, in []gpu.Buffer) (*decision, error) {
	chain := chainOf(ctx)
	if chain.has(t, op.Key) {
		return nil, fmt.Errorf("tune: %s: %w: %s", op.Key, ErrCycle, chain.path(t, op.Key))
	}
	holds := chain.holds(t) // this call chain holds t.measuring already
	names := candidateNames(op.Candidates)
	for {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if d, ok := t.lookup(ctx, op); ok {
			return d, nil
		}
		t.mu.Lock()
		f, mine := t.inflight[op.Key], false
		switch {
		case f != nil && t.noStall && !holds && slices.Equal(f.names, names):
			t.mu.Unlock()
			return pendingDecision(op), nil
		case f == nil:
			f, mine = &flight{done: make(chan struct{}), claimed: holds, names: names}, true
			t.inflight[op.Key] = f
		case holds && !f.claimed:
			// Its owner waits for the token this chain holds: measure it
			// here, or the two would wait for each other.
			f.claimed, f.names, mine = true, names, true
		}
		t.mu.Unlock()
		if mine {
			d, err, retry := t.fly(ctx, op, in, f, holds)
			if !retry {
				return d, err
			}
		}
		select {
		case <-f.done:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
		if f.err == nil && f.d.matches(op.Candidates) {
			return f.d, nil
		}
		if f.err != nil && !isContextErr(f.err) && slices.Equal(f.names, names) {
			return nil, f.err // the same answer as the tune's own caller
		}
		// The other tune was canceled, or decided other candidates: again.
	}
}

// fly measures op for flight f, which this goroutine owns. Without the
// token it first waits for it; if another chain claims f meanwhile, fly
// leaves f to it and reports retry.
func (t *Tuner) fly(ctx context.Context, op Op, in []gpu.Buffer, f *flight, holds bool) (d *decision, err error, retry bool) {
	if !holds {
		select {
		case t.measuring <- struct{}{}:
		case <-ctx.Done():
			t.mu.Lock()
			claimed := f.claimed
			f.claimed = true // no chain takes it over now: it is finished here
			t.mu.Unlock()
			if claimed {
				return nil, nil, true // its claimer finishes it
			}
			t.finish(op.Key, f, nil, ctx.Err())
			return nil, ctx.Err(), false
		}
		defer func() { <-t.measuring }()
		t.mu.Lock()
		claimed := f.claimed
		if !claimed {
			f.claimed, f.names = true, candidateNames(op.Candidates)
		}
		t.mu.Unlock()
		if claimed {
			return nil, nil, true
		}
	}
	finished := false
	defer func() {
		if !finished { // a panic outside the candidates (a callback, a cache), or Goexit
			r := recover()
			t.finish(op.Key, f, nil, fmt.Errorf("tune: %s: tune aborted: %v", op.Key, r))
			if r != nil {
				panic(r)
			}
		}
	}()
	var ok bool
	if d, ok = t.lookup(ctx, op); !ok { // else decided while this goroutine waited
		d, err = t.tuneInChain(ctx, op, in)
	}
	finished = true
	t.finish(op.Key, f, d, err)
	return d, err, false
}

// tuneInChain measures op (see measure.go) as a new link of ctx's call
// chain. The measurements launch through the client a launch here would
// use; when that client captures a graph, through a fork of it instead, so
// that they run (on their own stream) and stay out of the graph. The link
// names that client, so a candidate's nested Run launches there too. The
// caller holds the token.
func (t *Tuner) tuneInChain(ctx context.Context, op Op, in []gpu.Buffer) (*decision, error) {
	t.countMiss()
	mc := t.clientFor(ctx)
	if mc.Capturing() {
		mc = mc.Fork()
		defer mc.Close()
	}
	ctx = context.WithValue(ctx, linkKey{}, &link{t: t, key: op.Key, up: chainOf(ctx), mc: mc})
	return t.tune(ctx, mc, op, in)
}

// finish publishes f's outcome, stores a decision, and clears the key's
// in-flight state.
func (t *Tuner) finish(key string, f *flight, d *decision, err error) {
	if err == nil {
		t.decided.Store(key, d)
	}
	t.mu.Lock()
	if t.inflight[key] == f {
		delete(t.inflight, key)
	}
	f.d, f.err = d, err
	t.mu.Unlock()
	close(f.done)
}

func isContextErr(err error) bool {
	return errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded)
}

// link is one key being tuned by a call chain: the chain is carried in the
// context a measurement passes to its candidates, so a nested Pick or Run
// knows which keys are being tuned above it (a cycle) and that it already
// holds the tuner's token.
type link struct {
	t   *Tuner
	key string
	up  *link
	mc  *client.Client // the client key's measurements launch through
}

type linkKey struct{}

func chainOf(ctx context.Context) *link {
	l, _ := ctx.Value(linkKey{}).(*link)
	return l
}

// clientFor returns the client a launch of t in ctx goes through: the
// measuring client of the nearest tune of t up the chain (a measurement's
// nested Run launches where the measurement does), else t's own.
func (t *Tuner) clientFor(ctx context.Context) *client.Client {
	for l := chainOf(ctx); l != nil; l = l.up {
		if l.t == t {
			return l.mc
		}
	}
	return t.c
}

func (l *link) has(t *Tuner, key string) bool {
	for ; l != nil; l = l.up {
		if l.t == t && l.key == key {
			return true
		}
	}
	return false
}

func (l *link) holds(t *Tuner) bool {
	for ; l != nil; l = l.up {
		if l.t == t {
			return true
		}
	}
	return false
}

// path formats the cycle that key closes: "a → b → a".
func (l *link) path(t *Tuner, key string) string {
	keys := []string{key}
	for ; l != nil; l = l.up {
		if l.t == t {
			keys = append(keys, l.key)
			if l.key == key {
				break
			}
		}
	}
	slices.Reverse(keys)
	return strings.Join(keys, " → ")
}
