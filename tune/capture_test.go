package tune_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/streamgate/streamgate/client"
	"github.com/streamgate/streamgate/gpu"
	"github.com/streamgate/streamgate/registry"
	"github.com/streamgate/streamgate/streamgatetest"
	"github.com/streamgate/streamgate/tune"
)

// candidateOf is a candidate that launches k once on the first buffer.
func candidateOf(name string, k *gpu.Kernel) tune.Candidate {
	return tune.Candidate{Name: name, Run: func(ctx context.Context, c *client.Client, in []gpu.Buffer) error {
		return c.Launch(k, [3]uint32{1, 1, 1}, in...)
	}}
}

// TestCaptureMeetsTune captures a step that runs an undecided key and a
// fixed launch: the key is measured first, on a fork of the capturing
// client (its measurements execute on their own stream and stay out of
// the graph), and the graph holds exactly the winner's launch and the
// fixed one. A second capture of a decided key measures nothing.
func TestCaptureMeetsTune(t *testing.T) {
	r := registry.New()
	r.SetProcessMode(registry.ProcessCompileAndAutotune) // a warm-up pass
	svc := streamgatetest.NewService()
	c := client.New(svc, client.WithRegistry(r))
	tu := tune.New(c, tune.WithTiming(tune.TimingWall))
	user := svc.NewBuffer(64)
	kFast := gpu.NewKernel("fast", "@compute @workgroup_size(1) fn main() {}", "main")
	kSlow := gpu.NewKernel("slow", "@compute @workgroup_size(2) fn main() {}", "main")
	kFixed := gpu.NewKernel("fixed", "@compute @workgroup_size(4) fn main() {}", "main")
	scratch := svc.NewBuffer(64)
	op := tune.Op{
		Key:        "capture/64",
		Candidates: []tune.Candidate{candidateOf("fast", kFast), candidateOf("slow", kSlow)},
		NewInputs: func(context.Context) ([]gpu.Buffer, func(), error) {
			return []gpu.Buffer{scratch}, nil, nil
		},
	}
	ctx := context.Background()
	stepFn := func() error {
		res, err := tu.Run(ctx, op, user)
		if err != nil {
			return err
		}
		if res.Ran == "" {
			t.Errorf("Run's Result names no candidate")
		}
		return c.Launch(kFixed, [3]uint32{1, 1, 1}, user)
	}
	g, err := c.Capture(stepFn)
	require.NoError(t, err)
	assert.Equal(t, 2, g.Len(), "the graph holds the winner's launch and the fixed one")
	measured := svc.Executed("fast") + svc.Executed("slow")
	assert.Greater(t, measured, 0, "the undecided key was measured, and its measurements executed")
	assert.Empty(t, svc.Pending(c.Stream().Stream), "nothing of the capture is on the capturing stream")
	for _, sub := range svc.Submitted(c.Stream().Stream) {
		t.Errorf("a launch of %v ran on the capturing stream", sub.Kernel)
	}

	// The real pass replays it: the winner and the fixed launch, on the
	// user's buffer.
	r.SetProcessMode(registry.ProcessExecute)
	require.NoError(t, c.Replay(g))
	pending := svc.Pending(c.Stream().Stream)
	require.Len(t, pending, 2)
	assert.Equal(t, kFixed, pending[1].Kernel)
	assert.Contains(t, []*gpu.Kernel{kFast, kSlow}, pending[0].Kernel)
	assert.Equal(t, []gpu.Buffer{user}, pending[0].Bindings, "the winner binds the caller's buffer, not the measurement's")

	// A decided key: captured without measuring.
	g2, err := c.Capture(stepFn)
	require.NoError(t, err)
	assert.Equal(t, 2, g2.Len())
	assert.Equal(t, measured, svc.Executed("fast")+svc.Executed("slow"), "a decided key measures nothing")
}

// TestCaptureWinnerFails: a winner that launches and then fails during a
// capture is not followed by a fallback (its launch is in the graph): Run
// returns its error, the capture yields no graph, and the next capture
// runs the next best.
func TestCaptureWinnerFails(t *testing.T) {
	r := registry.New()
	svc := streamgatetest.NewService()
	c := client.New(svc, client.WithRegistry(r))
	tu := tune.New(c, tune.WithTiming(tune.TimingWall))
	kA := gpu.NewKernel("a", "@compute @workgroup_size(1) fn main() {}", "main")
	kB := gpu.NewKernel("b", "@compute @workgroup_size(2) fn main() {}", "main")
	fail := false
	first := tune.Candidate{Name: "a", Run: func(ctx context.Context, c *client.Client, in []gpu.Buffer) error {
		if err := c.Launch(kA, [3]uint32{1, 1, 1}); err != nil {
			return err
		}
		if fail {
			return errors.New("a broke after launching")
		}
		return nil
	}}
	slow := tune.Candidate{Name: "b", Run: func(ctx context.Context, c *client.Client, in []gpu.Buffer) error {
		if !fail {
			time.Sleep(3 * time.Millisecond) // loses the tune
		}
		return c.Launch(kB, [3]uint32{1, 1, 1})
	}}
	op := tune.Op{Key: "capture/fails", Candidates: []tune.Candidate{first, slow}, Pure: true}
	ctx := context.Background()
	_, res, err := tu.Pick(ctx, op)
	require.NoError(t, err)
	require.Equal(t, "a", res.Winner, "b sleeps 3 ms a run")
	fail = true
	g, err := c.Capture(func() error { _, err := tu.Run(ctx, op); return err })
	assert.Nil(t, g)
	assert.ErrorContains(t, err, "failed during a capture")
	assert.ErrorContains(t, err, "a broke after launching")

	g, err = c.Capture(func() error { _, err := tu.Run(ctx, op); return err })
	require.NoError(t, err, "the next capture runs the next best")
	require.NoError(t, c.Replay(g))
	pending := svc.Pending(c.Stream().Stream)
	require.Len(t, pending, 1)
	assert.Equal(t, kB, pending[0].Kernel)
}
