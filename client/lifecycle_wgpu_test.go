//go:build cgo || (js && wasm)

package client_test

// The lifecycle model: many goroutines launch, capture, replay,
// release graphs and buffers, flush, sync and close clients of one device
// (lavapipe), and after every round the device and the GPU are checked
// against what the calls returned. A deliberately broken device (one that
// recreates the streams CloseStream retired) must fail the check.

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/streamgate/streamgate/client"
	"github.com/streamgate/streamgate/gpu"
	"github.com/streamgate/streamgate/registry"
	"github.com/streamgate/streamgate/streamgatetest"
	"github.com/streamgate/streamgate/wgpu"
)

// pairKernel counts one executed launch in count[0], as counter does, and
// also writes a second buffer: a victim, which the model releases while
// launches and graphs bind it.
var pairKernel = gpu.NewKernel("pair", `
@group(0) @binding(0) var<storage, read_write> count: array<atomic<u32>>;
@group(0) @binding(1) var<storage, read_write> victim: array<u32>;

@compute @workgroup_size(1)
fn main() {
	atomicAdd(&count[0], 1u);
	victim[0] = victim[0] + 1u;
}
`, "main")

// modelRound is one round of the lifecycle model: its clients, buffers
// and graphs, and the launches the calls that returned nil recorded.
type modelRound struct {
	d       *wgpu.Device
	ctx     context.Context
	count   *wgpu.Buffer   // counts every executed launch; released after the check
	victims []*wgpu.Buffer // released during the round, once each
	freed   []atomic.Bool  // victims[i] released
	owner   *client.Client // PerClient: launches and captures, by worker 0 only
	shared  *client.Client // PerClient: launches from every worker, never captures
	single  *client.Client // Single: launches from every worker, never captures
	clients []*client.Client

	mu     sync.Mutex
	graphs []*client.Graph // owner's graphs, captured this round
	errs   []error         // violations: calls that returned an undocumented error

	want atomic.Uint64 // launches that returned nil (replays: their graph's length)
}

// documented reports whether err is one a call of the model may return:
// ErrClosed (the client closed, before or during the call), a launch or
// capture binding a released victim, a replay of a released graph or of
// one binding a released victim, a replay during the owner's capture, or
// a capture failed by those. Everything else — a LaunchError, the
// service's ErrStreamClosed seen through a client, a second capture — is
// not.
func documented(err error) bool {
	if err == nil || errors.Is(err, client.ErrClosed) {
		return true
	}
	if errors.Is(err, wgpu.ErrStreamClosed) || errors.Is(err, gpu.ErrStreamClosed) {
		return false // the client says ErrClosed
	}
	if j, ok := err.(interface{ Unwrap() []error }); ok { // a capture's joined errors
		for _, e := range j.Unwrap() {
			if !documented(e) {
				return false
			}
		}
		return true
	}
	var we *wgpu.Error
	if errors.As(err, &we) {
		return we.Type == wgpu.ErrorTypeInvalidArgument && strings.Contains(we.Message, "released")
	}
	msg := err.Error()
	return strings.HasSuffix(msg, "which is released") || strings.Contains(msg, "inside a Capture of the same client")
}

func (m *modelRound) check(op string, err error) error {
	if !documented(err) {
		m.mu.Lock()
		m.errs = append(m.errs, fmt.Errorf("%s: undocumented error: %w", op, err))
		m.mu.Unlock()
	}
	return err
}

// launch launches counter or pairKernel (on a victim) through c, and
// counts the launch when it returned nil.
func (m *modelRound) launch(rng *rand.Rand, c *client.Client) error {
	var err error
	if rng.IntN(2) == 0 {
		err = c.Launch(counter, [3]uint32{1, 1, 1}, m.count)
	} else {
		err = c.Launch(pairKernel, [3]uint32{1, 1, 1}, m.count, m.victims[rng.IntN(len(m.victims))])
	}
	if err == nil {
		m.want.Add(1)
	}
	return m.check("Launch", err)
}

// capture captures 1–3 launches through the owner; only worker 0 calls it,
// so no other goroutine's launch is captured.
func (m *modelRound) capture(rng *rand.Rand) {
	n := 1 + rng.IntN(3)
	g, err := m.owner.Capture(func() error {
		for range n {
			var err error
			if rng.IntN(2) == 0 {
				err = m.owner.Launch(counter, [3]uint32{1, 1, 1}, m.count)
			} else {
				err = m.owner.Launch(pairKernel, [3]uint32{1, 1, 1}, m.count, m.victims[rng.IntN(len(m.victims))])
			}
			if err != nil {
				return err
			}
		}
		return nil
	})
	if m.check("Capture", err) != nil {
		return
	}
	m.mu.Lock()
	m.graphs = append(m.graphs, g)
	m.mu.Unlock()
}

// graph returns one of the round's graphs, or nil.
func (m *modelRound) graph(rng *rand.Rand) *client.Graph {
	m.mu.Lock()
	defer m.mu.Unlock()
	if len(m.graphs) == 0 {
		return nil
	}
	return m.graphs[rng.IntN(len(m.graphs))]
}

// step makes one random call; worker 0 is the owner's only launcher and
// capturer.
func (m *modelRound) step(rng *rand.Rand, worker int) {
	c := m.clients[rng.IntN(len(m.clients))]
	switch op := rng.IntN(100); {
	case op < 35:
		if c == m.owner && worker != 0 {
			c = m.shared
		}
		m.launch(rng, c)
	case op < 40 && worker == 0:
		m.capture(rng)
	case op < 70:
		if g := m.graph(rng); g != nil {
			err := m.owner.Replay(g)
			if err == nil {
				m.want.Add(uint64(g.Len()))
			}
			m.check("Replay", err)
		}
	case op < 73:
		if g := m.graph(rng); g != nil {
			g.Release()
		}
	case op < 75:
		if i := rng.IntN(len(m.victims)); !m.freed[i].Swap(true) {
			m.victims[i].Release()
		}
	case op < 90:
		m.check("Flush", c.Flush())
	default:
		m.check("Sync", c.Sync(m.ctx))
	}
}

// run races workers against the clients' Close: each worker makes a few
// calls before the closes begin and goes on until every client is closed.
func (m *modelRound) run(rng *rand.Rand, workers int) {
	var wg, ready sync.WaitGroup
	var closed atomic.Bool
	ready.Add(workers)
	for w := range workers {
		wg.Add(1)
		wrng := rand.New(rand.NewPCG(rng.Uint64(), uint64(w)))
		go func() {
			defer wg.Done()
			for i := 0; ; i++ {
				if i == 4 {
					ready.Done()
				}
				if closed.Load() && i >= 4 {
					// A few calls more on closed clients: each is ErrClosed.
					for range 3 {
						m.step(wrng, w)
					}
					return
				}
				m.step(wrng, w)
			}
		}()
	}
	ready.Wait()
	order := rng.Perm(len(m.clients))
	for _, i := range order {
		if rng.IntN(2) == 0 {
			runtime.Gosched()
		}
		m.check("Close", m.clients[i].Close())
	}
	closed.Store(true)
	wg.Wait()
}

// lifecycleModel runs rounds of the model on d and returns every
// violation: an undocumented error, a count of executed launches that
// differs from the launches that returned nil, a stream, bind group or
// buffer left on the device by a round, a pipeline beyond the two kernels'.
// After the last round it closes d and checks that d holds nothing. left
// is the streams the rounds left live, summed over the rounds.
func lifecycleModel(t *testing.T, d *wgpu.Device, rounds int, seed uint64) (errs []error, left int) {
	t.Helper()
	return lifecycleModelOn(t, d, d, rounds, seed)
}

// lifecycleModelOn is lifecycleModel with the rounds' clients on svc, a
// service over d.
func lifecycleModelOn(t *testing.T, d *wgpu.Device, svc gpu.Service, rounds int, seed uint64) (errs []error, left int) {
	t.Helper()
	ctx := context.Background()
	r := registry.New()
	rng := rand.New(rand.NewPCG(seed, 27))
	// The Single policy's shared stream lives as long as the device: make
	// it first, so that every round ends with it alone.
	{
		warm, err := d.NewBuffer(4, 0)
		require.NoError(t, err)
		warm2, err := d.NewBuffer(4, 0)
		require.NoError(t, err)
		s := client.New(d, client.WithRegistry(r), client.WithStreamPolicy(client.Single))
		require.NoError(t, s.Launch(counter, [3]uint32{1, 1, 1}, warm))
		require.NoError(t, s.Launch(pairKernel, [3]uint32{1, 1, 1}, warm, warm2))
		require.NoError(t, s.Sync(ctx))
		require.NoError(t, s.Close())
		warm.Release()
		warm2.Release()
	}
	base := d.Stats()
	if base.StreamsLive != 1 {
		return []error{fmt.Errorf("%d streams live before the rounds, want 1 (Single's)", base.StreamsLive)}, 0
	}
	for round := range rounds {
		m := &modelRound{d: d, ctx: ctx}
		var err error
		m.count, err = d.NewBuffer(4, 0)
		require.NoError(t, err)
		require.NoError(t, wgpu.Write(m.count, 0, []uint32{0}))
		for range 2 {
			v, err := d.NewBuffer(4, 0)
			require.NoError(t, err)
			m.victims = append(m.victims, v)
		}
		m.freed = make([]atomic.Bool, len(m.victims))
		m.owner = client.New(svc, client.WithRegistry(r))
		m.shared = client.New(svc, client.WithRegistry(r))
		m.single = client.New(svc, client.WithRegistry(r), client.WithStreamPolicy(client.Single))
		m.clients = []*client.Client{m.owner, m.shared, m.single}
		m.capture(rng) // a graph to replay from the start

		m.run(rng, 6)

		// The Single stream's launches recorded after its client's Close
		// wait for the shared stream's next flush: this one.
		if err := d.Sync(ctx, client.SingleStream); err != nil {
			errs = append(errs, fmt.Errorf("round %d: Sync of the shared stream: %w", round, err))
		}
		got, err := wgpu.Read[uint32](ctx, m.count, 0, 1)
		require.NoError(t, err)
		if uint64(got[0]) != m.want.Load() {
			errs = append(errs, fmt.Errorf("round %d: the GPU ran %d launches, the calls that returned nil recorded %d", round, got[0], m.want.Load()))
		}
		var executed uint64
		for _, c := range m.clients {
			executed += c.Stats().Executed
		}
		if executed != m.want.Load() {
			errs = append(errs, fmt.Errorf("round %d: the clients' Stats count %d executed launches, the calls that returned nil recorded %d", round, executed, m.want.Load()))
		}
		errs = append(errs, m.errs...)
		for i, v := range m.victims {
			if !m.freed[i].Swap(true) {
				v.Release()
			}
		}
		m.count.Release()
		st := d.Stats()
		if st.StreamsLive != base.StreamsLive {
			errs = append(errs, fmt.Errorf("round %d: %d streams live after every client closed, want %d (Single's, and any an earlier round left)", round, st.StreamsLive, base.StreamsLive))
			left += st.StreamsLive - base.StreamsLive
			base.StreamsLive = st.StreamsLive // count each left stream once
		}
		if st.BuffersLive != base.BuffersLive || st.BindGroupsLive != base.BindGroupsLive {
			errs = append(errs, fmt.Errorf("round %d: %d buffers and %d bind groups live after the round's buffers were released, want %d and %d",
				round, st.BuffersLive, st.BindGroupsLive, base.BuffersLive, base.BindGroupsLive))
		}
		if st.PipelinesCached != base.PipelinesCached {
			errs = append(errs, fmt.Errorf("round %d: %d pipelines cached, want %d (the two kernels')", round, st.PipelinesCached, base.PipelinesCached))
		}
		if len(errs) > 20 && !soak {
			break
		}
	}
	if err := d.Close(); err != nil {
		errs = append(errs, fmt.Errorf("device Close: %w", err))
	}
	if st := d.Stats(); st.StreamsLive != 0 || st.BuffersLive != 0 || st.BindGroupsLive != 0 || st.PipelinesCached != 0 {
		errs = append(errs, fmt.Errorf("after the device's Close: %d streams, %d buffers, %d bind groups, %d pipelines live", st.StreamsLive, st.BuffersLive, st.BindGroupsLive, st.PipelinesCached))
	}
	return errs, left
}

// TestLifecycleModel: the lifecycle model holds on the real device, round
// after round. STREAMGATE_SOAK=1 runs 1,000 rounds (make soak).
func TestLifecycleModel(t *testing.T) {
	rounds := 25
	switch {
	case soak:
		rounds = 1000
	case testing.Short() || raceEnabled:
		rounds = 8
	}
	d := streamgatetest.OpenDevice(t)
	start := time.Now()
	errs, left := lifecycleModel(t, d, rounds, 1)
	for i, err := range errs {
		if i == 20 {
			t.Errorf("and %d more", len(errs)-i)
			break
		}
		t.Error(err)
	}
	t.Logf("%d rounds in %v: %d streams live after Close, %d violations", rounds, time.Since(start).Round(time.Millisecond), left, len(errs))
}

// soak is STREAMGATE_SOAK=1 (make soak): the long forms.
var soak = os.Getenv("STREAMGATE_SOAK") == "1"
