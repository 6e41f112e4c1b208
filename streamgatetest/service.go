package streamgatetest

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/streamgate/streamgate/gpu"
	"github.com/streamgate/streamgate/lockfree"
)

// Launch is one recorded dispatch.
type Launch struct {
	Kernel     *gpu.Kernel
	Workgroups [3]uint32
	Bindings   []gpu.Binding
}

// Service is an in-memory [gpu.Service] for fast unit tests of code that
// launches through a client.Client or a tune.Tuner: it compiles nothing and
// runs nothing, it records what it was asked to do. A kernel "compiles"
// unless [Service.Fail] names it; a launch is recorded as pending on its
// stream, and Flush, Sync and CloseStream move a stream's pending launches
// to its submitted ones; a stream CloseStream closed stays closed (its
// launches, replays and captures fail with gpu.ErrStreamClosed). Bindings
// come from [Service.NewBuffer] (and, standing in for a device's texture
// views and samplers, [Service.NewTexture], [Service.NewStorageTexture] and
// [Service.NewSampler]); a launch binding any other fails. Tests of real GPU work use [OpenDevice].
//
// A Service is safe for concurrent use by multiple goroutines. The zero
// value is not usable; use [NewService]. Compiled never blocks and never
// allocates, as a real service's must not.
type Service struct {
	id       gpu.ServiceID
	compiled lockfree.Value[map[[32]byte]struct{}] // copy-on-write set of compiled kernel keys

	mu        sync.Mutex                // guards the fields below
	fail      map[string]error          // kernel name → its compile error
	compiles  map[string]int            // kernel name → compiles done
	pending   map[gpu.StreamID][]Launch // recorded, not flushed
	submitted map[gpu.StreamID][]Launch // flushed
	executed  map[string]int            // kernel name → launches submitted
	syncs     map[gpu.StreamID]int      // Sync calls per stream
	closed    map[gpu.StreamID]int      // CloseStream calls per stream
	replays   map[gpu.StreamID]int      // graph replays per stream (graph.go)
	batches   [][]string                // Precompile batches, by kernel name
}

// NewService returns an empty service with a fresh process-unique id.
func NewService() *Service {
	return &Service{
		id:        gpu.NewServiceID(),
		fail:      map[string]error{},
		compiles:  map[string]int{},
		pending:   map[gpu.StreamID][]Launch{},
		submitted: map[gpu.StreamID][]Launch{},
		executed:  map[string]int{},
		syncs:     map[gpu.StreamID]int{},
		closed:    map[gpu.StreamID]int{},
		replays:   map[gpu.StreamID]int{},
	}
}

// Fail makes kernels named name fail to compile with err.
func (s *Service) Fail(name string, err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.fail[name] = err
}

// NewBuffer returns a buffer of this service.
func (s *Service) NewBuffer(size uint64) *Buffer { return &Buffer{size: size, owner: s} }

// NewTexture returns a texture view of this service, a binding of kind
// gpu.KindTexture (its Size is 0).
func (s *Service) NewTexture() *Buffer { return &Buffer{owner: s, kind: gpu.KindTexture} }

// NewStorageTexture returns a storage texture view of this service, a
// binding of kind gpu.KindStorageTexture.
func (s *Service) NewStorageTexture() *Buffer { return &Buffer{owner: s, kind: gpu.KindStorageTexture} }

// NewSampler returns a sampler of this service, a binding of kind
// gpu.KindSampler.
func (s *Service) NewSampler() *Buffer { return &Buffer{owner: s, kind: gpu.KindSampler} }

// ServiceID implements gpu.Service.
func (s *Service) ServiceID() gpu.ServiceID { return s.id }

// Compiled implements gpu.Service without locking or allocating.
func (s *Service) Compiled(k *gpu.Kernel) bool {
	m := s.compiled.Load()
	if m == nil {
		return false
	}
	_, ok := (*m)[k.Key()]
	return ok
}

// Compile implements gpu.Service.
func (s *Service) Compile(ctx context.Context, k *gpu.Kernel) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if s.Compiled(k) {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.Compiled(k) {
		return nil
	}
	if err := s.fail[k.Name()]; err != nil {
		return fmt.Errorf("streamgatetest: compile %v: %w", k, err)
	}
	s.compiles[k.Name()]++
	s.compiled.Update(func(old *map[[32]byte]struct{}) *map[[32]byte]struct{} {
		next := make(map[[32]byte]struct{}, 1)
		if old != nil {
			for key := range *old {
				next[key] = struct{}{}
			}
		}
		next[k.Key()] = struct{}{}
		return &next
	})
	return nil
}

// Precompile implements gpu.Service.
func (s *Service) Precompile(ctx context.Context, ks []*gpu.Kernel) error {
	names := make([]string, len(ks))
	var errs []error
	for i, k := range ks {
		names[i] = k.Name()
		if err := s.Compile(ctx, k); err != nil {
			errs = append(errs, err)
		}
	}
	s.mu.Lock()
	s.batches = append(s.batches, names)
	s.mu.Unlock()
	return errors.Join(errs...)
}

// Launch implements gpu.Service: it compiles k and records the dispatch.
func (s *Service) Launch(stream gpu.StreamID, k *gpu.Kernel, wg [3]uint32, bindings ...gpu.Binding) error {
	if err := s.check(k, bindings); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.retiredLocked("launch", stream); err != nil {
		return err
	}
	s.pending[stream] = append(s.pending[stream], Launch{Kernel: k, Workgroups: wg, Bindings: append([]gpu.Binding(nil), bindings...)})
	return nil
}

// check makes Launch's checks and compiles k.
func (s *Service) check(k *gpu.Kernel, bindings []gpu.Buffer) error {
	for i, b := range bindings {
		fb, ok := b.(*Buffer)
		if !ok || fb == nil || fb.owner != s {
			return fmt.Errorf("streamgatetest: launch %v: binding %d is not a %v of this service", k, i, gpu.KindOf(b))
		}
		if fb.released.Load() {
			return fmt.Errorf("streamgatetest: launch %v: binding %d: %v is released", k, i, fb.kind)
		}
	}
	return s.Compile(context.Background(), k)
}

// Flush implements gpu.Service.
func (s *Service) Flush(stream gpu.StreamID) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, l := range s.pending[stream] {
		s.executed[l.Kernel.Name()]++
	}
	s.submitted[stream] = append(s.submitted[stream], s.pending[stream]...)
	delete(s.pending, stream)
	return nil
}

// retiredLocked returns the error of op on stream when CloseStream retired
// it (gpu.ErrStreamClosed), else nil.
func (s *Service) retiredLocked(op string, stream gpu.StreamID) error {
	if s.closed[stream] > 0 {
		return fmt.Errorf("streamgatetest: %s on stream %d: %w", op, stream, gpu.ErrStreamClosed)
	}
	return nil
}

// CloseStream implements gpu.Service: it flushes the stream and retires
// it: a later launch, replay or capture on it returns an error matching
// gpu.ErrStreamClosed, as the contract says.
func (s *Service) CloseStream(stream gpu.StreamID) error {
	if err := s.Flush(stream); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.closed[stream]++
	return nil
}

// Closed returns how many times stream was closed.
func (s *Service) Closed(stream gpu.StreamID) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.closed[stream]
}

// Sync implements gpu.Service.
func (s *Service) Sync(ctx context.Context, stream gpu.StreamID) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	s.mu.Lock()
	s.syncs[stream]++
	s.mu.Unlock()
	return s.Flush(stream)
}

// Compiles returns how many times kernels named name were compiled.
func (s *Service) Compiles(name string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.compiles[name]
}

// Executed returns how many launches of kernels named name were submitted.
func (s *Service) Executed(name string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.executed[name]
}

// Pending returns the launches recorded on stream and not yet flushed.
func (s *Service) Pending(stream gpu.StreamID) []Launch {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Launch(nil), s.pending[stream]...)
}

// Submitted returns the launches flushed on stream.
func (s *Service) Submitted(stream gpu.StreamID) []Launch {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Launch(nil), s.submitted[stream]...)
}

// Batches returns the Precompile batches, each as its kernels' names.
func (s *Service) Batches() [][]string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([][]string(nil), s.batches...)
}

// Syncs returns how many times stream was synced.
func (s *Service) Syncs(stream gpu.StreamID) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.syncs[stream]
}

// Buffer is a buffer of a [Service]: a size and nothing else. It is safe
// for concurrent use; a launch binding it after [Buffer.Release] fails.
type Buffer struct {
	size     uint64          // written once
	kind     gpu.BindingKind // written once: a buffer, or a texture view or sampler standing in for one
	owner    *Service
	released atomic.Bool
}

// BindingKind implements gpu.Kinded: what the binding stands for.
func (b *Buffer) BindingKind() gpu.BindingKind { return b.kind }

// Release marks the buffer released: later launches, captures and replays
// binding it fail. Releasing twice is harmless.
func (b *Buffer) Release() { b.released.Store(true) }

// Size implements gpu.Buffer.
func (b *Buffer) Size() uint64 { return b.size }

var _ gpu.Service = (*Service)(nil)
