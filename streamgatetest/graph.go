package streamgatetest

import (
	"fmt"
	"sync/atomic"

	"github.com/streamgate/streamgate/gpu"
)

var _ gpu.Capturer = (*Service)(nil)

// Capture implements [gpu.Capturer]: the recorder checks each launch as
// [Service.Launch] does (the buffers are this service's and not released,
// the kernel compiles) and records it; the graph's Replay appends its
// launches to the stream's pending ones.
func (s *Service) Capture(stream gpu.StreamID) (gpu.GraphRecorder, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.retiredLocked("capture", stream); err != nil {
		return nil, err
	}
	return &graphRecorder{s: s, stream: stream}, nil
}

// Replays returns how many graph replays were recorded on stream.
func (s *Service) Replays(stream gpu.StreamID) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.replays[stream]
}

type graphRecorder struct {
	s        *Service
	stream   gpu.StreamID
	launches []Launch
	finished bool
}

func (r *graphRecorder) Launch(k *gpu.Kernel, wg [3]uint32, bindings ...gpu.Buffer) error {
	if r.finished {
		return fmt.Errorf("streamgatetest: Launch on a finished graph recorder")
	}
	if err := r.s.check(k, bindings); err != nil {
		return err
	}
	r.launches = append(r.launches, Launch{Kernel: k, Workgroups: wg, Bindings: append([]gpu.Buffer(nil), bindings...)})
	return nil
}

func (r *graphRecorder) Finish() (gpu.Graph, error) {
	if r.finished {
		return nil, fmt.Errorf("streamgatetest: Finish on a finished graph recorder")
	}
	r.finished = true
	r.s.mu.Lock()
	err := r.s.retiredLocked("capture", r.stream)
	r.s.mu.Unlock()
	if err != nil {
		return nil, err
	}
	g := &graph{s: r.s, id: gpu.NewGraphID(), stream: r.stream, launches: r.launches}
	if err := g.Check(); err != nil {
		return nil, err
	}
	return g, nil
}

type graph struct {
	s        *Service
	id       uint64
	stream   gpu.StreamID
	launches []Launch
	released atomic.Bool
}

func (g *graph) ID() uint64           { return g.id }
func (g *graph) Len() int             { return len(g.launches) }
func (g *graph) Stream() gpu.StreamID { return g.stream }
func (g *graph) Release()             { g.released.Store(true) }

func (g *graph) Check() error {
	if g.released.Load() {
		return fmt.Errorf("streamgatetest: graph %d is released", g.id)
	}
	for i, l := range g.launches {
		for j, b := range l.Bindings {
			if b.(*Buffer).released.Load() {
				return fmt.Errorf("streamgatetest: graph %d: launch %d (%v): binding %d: buffer is released", g.id, i, l.Kernel, j)
			}
		}
	}
	return nil
}

func (g *graph) Replay() error {
	if err := g.Check(); err != nil {
		return err
	}
	g.s.mu.Lock()
	defer g.s.mu.Unlock()
	if err := g.s.retiredLocked("replay", g.stream); err != nil {
		return err
	}
	g.s.pending[g.stream] = append(g.s.pending[g.stream], g.launches...)
	g.s.replays[g.stream]++
	return nil
}
