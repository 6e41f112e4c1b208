package client

import (
	"errors"
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/streamgate/streamgate/gpu"
	"github.com/streamgate/streamgate/registry"
)

// Graph is a step captured once by [Client.Capture] and replayed by
// [Client.Replay]: its launches' pipelines, bind groups and workgroup
// counts fixed at capture, so that a replay that executes costs one mode
// read and one batch the service encodes at once, and a replay that
// discards one mode read.
//
// A Graph belongs to the client that captured it, that client's stream and
// its service. The buffers bound at capture are the graph's: their
// contents may change between replays, but a graph one of whose buffers
// was released (or recycled, wgpu's TempBuffer pool) no longer replays.
// It is safe for concurrent use by multiple goroutines; the zero value is
// not usable.
type Graph struct {
	c        *Client   // written once
	g        gpu.Graph // written once
	n        uint64    // written once: len
	released atomic.Bool
}

// ID returns the graph's process-unique id, the one a [*gpu.LaunchError]'s
// [gpu.FailedLaunch].Graph names.
func (g *Graph) ID() uint64 { return g.g.ID() }

// Len returns how many launches the graph holds.
func (g *Graph) Len() int { return int(g.n) }

// Client returns the client the graph belongs to.
func (g *Graph) Client() *Client { return g.c }

// Release frees what the graph holds on its service; later replays return
// an error. Replays already recorded still run. Releasing twice is
// harmless; [Client.Close] releases the client's graphs.
func (g *Graph) Release() {
	if g == nil {
		return
	}
	g.c.mu.Lock()
	delete(g.c.graphs, g)
	g.c.mu.Unlock()
	g.release()
}

func (g *Graph) release() {
	if !g.released.Swap(true) {
		g.g.Release()
	}
}

// String names the graph: "graph 3 (51 launches)".
func (g *Graph) String() string { return fmt.Sprintf("graph %d (%d launches)", g.ID(), g.n) }

// capture is a Client.Capture in progress: Launch hands it its launches.
type capture struct {
	mu   sync.Mutex        // serializes the recorder; guards the fields below
	rec  gpu.GraphRecorder // nil once done
	done bool              // the capture ended
	n    uint64            // launches recorded
	errs []error           // each launch the recorder refused
}

// Capture runs step and records every launch made through this client
// while it runs — from any goroutine — into a graph instead of running it.
// Each launch is checked, its kernel compiled and its bind groups made
// exactly as an executed [Client.Launch] would, and the launch returns
// Launch's error; nothing executes, whatever the stream's mode and the
// process mode. Under a process mode that discards, Capture is therefore
// the warm-up pass: every kernel of the step compiles, and the graph it
// returns is what the real pass replays. Only launches are captured: an
// upload, read-back or copy of a buffer, a Flush or a Sync the step makes
// runs at once, during the capture, and a replay does not repeat it. A
// launch through this client after step returned — from a goroutine step
// left running — is an ordinary launch, never added to the finished
// graph.
//
// If step returns an error, or any launch of the capture failed (even one
// step went on from, as a tuner's fallback does), Capture returns the
// errors joined and no graph. A panic in step (or a runtime.Goexit) ends
// the capture and propagates. Only one capture per client runs at a time:
// Capture inside a capture of the same client is an error. A launch
// through another client — a fork, or under [Single] a client on the same
// stream — is not captured; that client may capture on its own meanwhile.
//
// Package tune meets a capture as follows: a decided key's winner
// launches through the tuner's client, and is captured when that client
// is the capturing one; an undecided key is measured first — its
// candidates run on a fork of the client, outside the graph — and its
// winner is then captured. A winner that fails during a capture is not
// followed by a fallback (its launches are in the graph already): the
// tuner's Run returns the error, and the capture fails.
//
// The service must implement [gpu.Capturer] (package wgpu's Device does).
func (c *Client) Capture(step func() error) (*Graph, error) {
	if c.closed.Load() {
		return nil, ErrClosed
	}
	if step == nil {
		return nil, errors.New("client: Capture of a nil step")
	}
	capt, ok := c.svc.(gpu.Capturer)
	if !ok {
		return nil, fmt.Errorf("client: Capture: service %T does not implement gpu.Capturer", c.svc)
	}
	rec, err := capt.Capture(c.key.Stream)
	if err != nil {
		return nil, c.refused(err)
	}
	cp := &capture{rec: rec}
	if !c.capture.CompareAndSwap(nil, cp) {
		return nil, errors.New("client: Capture while another capture of the client runs")
	}
	var stepErr error
	func() {
		defer c.endCapture(cp) // a panic in step ends the capture too
		stepErr = step()
	}()
	cp.mu.Lock()
	errs, n := cp.errs, cp.n
	cp.mu.Unlock()
	if stepErr != nil || len(errs) > 0 {
		return nil, errors.Join(append([]error{stepErr}, errs...)...)
	}
	if c.closed.Load() {
		return nil, ErrClosed
	}
	g, err := rec.Finish()
	if err != nil {
		return nil, c.refused(err) // ErrClosed when Close closed the stream meanwhile
	}
	cg := &Graph{c: c, g: g, n: uint64(g.Len())}
	c.mu.Lock()
	if c.closed.Load() { // Close ran while we finished: it released the others
		c.mu.Unlock()
		g.Release()
		return nil, ErrClosed
	}
	if c.graphs == nil {
		c.graphs = map[*Graph]struct{}{}
	}
	c.graphs[cg] = struct{}{}
	c.mu.Unlock()
	c.stats.captured.Add(n)
	return cg, nil
}

// endCapture stops the client capturing: a launch that loaded cp before
// and records after runs as a launch outside the capture.
func (c *Client) endCapture(cp *capture) {
	c.capture.CompareAndSwap(cp, nil)
	cp.mu.Lock()
	cp.rec, cp.done = nil, true
	cp.mu.Unlock()
}

// replayInCapture refuses a replay during a capture of c (it would run
// now, in the middle of a capture that runs nothing), failing the capture
// too, as a refused launch does.
func (c *Client) replayInCapture(cp *capture, g *Graph) error {
	err := fmt.Errorf("client: Replay of graph %d inside a Capture of the same client: capture the launches themselves", g.g.ID())
	cp.fail(err)
	return err
}

// nilKernel is the error of a launch of a nil kernel. While a capture
// runs it also fails the capture, as every launch the capture refuses
// does, even when the step swallows the error.
func (c *Client) nilKernel() error {
	err := errors.New("client: Launch of a nil kernel")
	if cp := c.capture.Load(); cp != nil {
		cp.fail(err)
	}
	return err
}

// fail records err as a failure of the capture, unless it has ended.
func (cp *capture) fail(err error) {
	cp.mu.Lock()
	if !cp.done {
		cp.errs = append(cp.errs, err)
	}
	cp.mu.Unlock()
}

// captureLaunch records one launch into cp.
func (c *Client) captureLaunch(cp *capture, k *gpu.Kernel, workgroups [3]uint32, bindings []gpu.Buffer) error {
	bs := append([]gpu.Buffer(nil), bindings...) // the caller's variadic slice must not escape
	cp.mu.Lock()
	if cp.done {
		cp.mu.Unlock()
		return c.launch(k, workgroups, bs)
	}
	err := cp.rec.Launch(k, workgroups, bs...)
	if err != nil {
		cp.errs = append(cp.errs, err)
	} else {
		cp.n++
	}
	cp.mu.Unlock()
	return err
}

// refused is the error of a call the service refused with err, having
// done nothing: ErrClosed when the client was closed meanwhile (a call
// racing Close finds its graph released or its stream closed by Close,
// which is no error of the caller's own), else err.
func (c *Client) refused(err error) error {
	if c.closed.Load() {
		return ErrClosed
	}
	return err
}

// Capturing reports whether a [Client.Capture] of this client is running:
// its launches are being recorded, not run. Package tune measures on a
// fork of a capturing client.
func (c *Client) Capturing() bool { return c.capture.Load() != nil }

// Replay replays g on the client's stream, reading the stream's mode once.
//
//   - Execute: every launch of the graph goes onto the stream as one
//     batch, in capture order and after the stream's earlier launches,
//     encoded by the service at once from the pipelines and bind groups
//     made at capture; there is no per-launch work. It is ordered with the
//     stream's other work as launches are: an upload before the replay is
//     seen by it, a read-back after it sees its results. Each launch
//     counts in [Stats] as Executed (Failed if the driver rejects it: a
//     [*gpu.LaunchError] naming it by the graph's id and its index in the
//     graph; the others run).
//   - Discard: nothing is recorded, and every launch of the graph counts
//     as Discarded; the graph's kernels compiled at capture.
//
// Either way a graph one of whose buffers was released or recycled since
// the capture is an error naming it, and runs nothing; so is a released
// graph, one of another client, and a replay while a Capture of this
// client runs (it would execute in the middle of a capture). After Close, Replay returns
// [ErrClosed], as does a replay racing Close that finds its graph released
// or its stream closed by it (one that recorded before returns nil, and
// Close submitted it); after the service's own close, its error
// (wgpu.ErrClosed).
// Replay does not allocate.
func (c *Client) Replay(g *Graph) error {
	if c.closed.Load() {
		return ErrClosed
	}
	if g == nil {
		return errors.New("client: Replay of a nil graph")
	}
	if g.c != c {
		return fmt.Errorf("client: Replay of graph %d, which belongs to another client", g.g.ID())
	}
	if g.released.Load() { // by Release, or by a Close racing this replay
		return c.refused(fmt.Errorf("client: Replay of graph %d, which is released", g.g.ID()))
	}
	if cp := c.capture.Load(); cp != nil {
		return c.replayInCapture(cp, g)
	}
	if c.reg.Resolve(c.key) != registry.Execute {
		if err := g.g.Check(); err != nil {
			return c.refused(err)
		}
		c.stats.discarded.Add(g.n)
		c.stats.discardedReplays.Add(1)
		return nil
	}
	err := g.g.Replay()
	if err != nil && !isLaunchError(err) {
		return c.refused(err) // nothing recorded
	}
	c.stats.executed.Add(g.n)
	c.stats.replayedLaunches.Add(g.n)
	c.stats.replays.Add(1)
	return c.observe(err)
}
