//go:build cgo || (js && wasm)

package genrun_test

import (
	"context"
	"errors"
	"slices"
	"testing"

	"github.com/streamgate/streamgate/client"
	"github.com/streamgate/streamgate/internal/gputest"
	"github.com/streamgate/streamgate/internal/low/leaktest"
	"github.com/streamgate/streamgate/internal/workload/decoder"
	"github.com/streamgate/streamgate/internal/workload/genrun"
	"github.com/streamgate/streamgate/registry"
	"github.com/streamgate/streamgate/streamgatetest"
	"github.com/streamgate/streamgate/tune"
)

func TestMain(m *testing.M) { gputest.Main(func() int { return leaktest.Run(m.Run) }) }

// small is a decoder quick to tune and run, on lavapipe and in a browser.
var small = decoder.Config{Layers: 2, Width: 36, Heads: 3, Seq: 16, Vocab: 50, Seed: 7}

const smallTokens = 6

// warmedUp captures g's steps under CompileAndAutotune on a registry of
// its own, decides the winners and primes them, as the demo's warm-up
// does, and returns the client (in Execute), the graphs and the winners.
func warmedUp(t *testing.T, g *decoder.Generator) (*client.Client, *client.Graph, *client.Graph, map[string]string) {
	t.Helper()
	ctx := context.Background()
	d := g.Device()
	reg := registry.New()
	c := client.New(d, client.WithRegistry(reg))
	t.Cleanup(func() { c.Close() })
	tu := tune.New(c, tune.WithCache(tune.NewMemoryCache()), tune.WithTiming(tune.TimingWall))
	winners := map[string]string{}
	launch := genrun.TunedLaunch(ctx, tu, c, func(o *decoder.Op, r *tune.Result) { winners[o.Key] = r.Winner })
	reg.SetProcessMode(registry.ProcessCompileAndAutotune)
	compiles0 := d.Stats().Compiles
	pre, dec, err := genrun.Capture(c, g, launch)
	if err != nil {
		t.Fatalf("Capture: %v", err)
	}
	t.Cleanup(func() { pre.Release(); dec.Release() })
	if err := c.Sync(ctx); err != nil {
		t.Fatal(err)
	}
	if got := d.Stats().Compiles - compiles0; got == 0 {
		t.Errorf("the warm-up compiled no pipeline")
	}
	if st := c.Stats(); st.Executed != 0 || st.Captured != uint64(pre.Len()+dec.Len()) {
		t.Errorf("the warm-up's client: executed %d, captured %d; want 0 and %d", st.Executed, st.Captured, pre.Len()+dec.Len())
	}
	if pre.Len() != small.PrefillLaunches() || dec.Len() != small.DecodeLaunches() {
		t.Errorf("graphs of %d and %d launches, want %d and %d", pre.Len(), dec.Len(), small.PrefillLaunches(), small.DecodeLaunches())
	}
	n, _, err := genrun.Prime(ctx, g, winners)
	if err != nil || n == 0 {
		t.Fatalf("Prime = %d, %v; want some pipelines primed", n, err)
	}
	reg.SetProcessMode(registry.ProcessExecute)
	return c, pre, dec, winners
}

func newGenerator(t *testing.T) *decoder.Generator {
	t.Helper()
	d := streamgatetest.OpenDevice(t)
	w := decoder.NewWeights(small)
	g, err := decoder.NewGenerator(d, small, w, w.Tokens[:5])
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(g.Release)
	return g
}

// TestReplayed warms up and generates by replay: the reference's tokens,
// every logit within tolerance, nothing compiled, a time per decode step.
func TestReplayed(t *testing.T) {
	ctx := context.Background()
	g := newGenerator(t)
	c, pre, dec, _ := warmedUp(t, g)
	st0 := g.Device().Stats()
	compiles := st0.Compiles
	run, err := genrun.Replayed(ctx, g, c, pre, dec, smallTokens)
	st1 := g.Device().Stats()
	if err != nil {
		t.Fatalf("Replayed: %v", err)
	}
	if got := g.Device().Stats().Compiles - compiles; got != 0 {
		t.Errorf("the replayed generation compiled %d pipelines, want 0", got)
	}
	if len(run.Steps) != smallTokens-1 || run.TTFT <= 0 || slices.Min(run.Steps) <= 0 {
		t.Errorf("times: first token %v, steps %v; want %d steps, all positive", run.TTFT, run.Steps, smallTokens-1)
	}
	// No buffer is made during the generation, and after the first token
	// no staging buffer either: they are pooled, on the desktop and in the
	// page alike.
	if got := st1.BuffersCreated - st0.BuffersCreated; got != 0 {
		t.Errorf("%d GPU buffers created during the generation, want 0", got)
	}
	if run.Created != 0 {
		t.Errorf("%d buffers created after the first token, want 0", run.Created)
	}
	want := decoder.ReferenceGenerate(small, g.W, g.Prompt, smallTokens)
	logits, err := g.ReadLogits(ctx, smallTokens-1)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := decoder.CheckGeneration(want, run.Tokens, logits, len(g.Prompt)); err != nil {
		t.Errorf("CheckGeneration: %v (tokens %v, want %v)", err, run.Tokens, want.Tokens)
	}
	if st := c.Stats(); st.Replays != smallTokens {
		t.Errorf("replays = %d, want %d (the prefill and each decode step)", st.Replays, smallTokens)
	}
}

// TestReplayedInterrupted: a context that ends stops the generation at
// the next token boundary with the tokens so far and ErrInterrupted.
func TestReplayedInterrupted(t *testing.T) {
	g := newGenerator(t)
	c, pre, dec, _ := warmedUp(t, g)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	run, err := genrun.Replayed(ctx, g, c, pre, dec, smallTokens)
	if !errors.Is(err, genrun.ErrInterrupted) || len(run.Tokens) != 1 || len(run.Steps) != 0 {
		t.Fatalf("Replayed on an ended context = %d tokens, %d steps, %v; want 1 token (the prefill's), no step, ErrInterrupted", len(run.Tokens), len(run.Steps), err)
	}
}

// TestGenerateCold runs the generation without a warm-up: it compiles at
// its launches and its tokens are the reference's.
func TestGenerateCold(t *testing.T) {
	g := newGenerator(t)
	cold, err := genrun.Generate(context.Background(), g, map[string]string{}, smallTokens)
	if err != nil {
		t.Fatalf("Generate: %v", err)
	}
	want := decoder.ReferenceGenerate(small, g.W, g.Prompt, smallTokens)
	if !slices.Equal(cold.Tokens, want.Tokens) {
		t.Errorf("tokens %v, want the reference's %v", cold.Tokens, want.Tokens)
	}
	if cold.Compiles == 0 || cold.TTFTMs <= 0 || len(cold.TokenMs) != smallTokens-1 {
		t.Errorf("Cold = %+v; want pipelines compiled before the first token, a positive time, %d steps", cold, smallTokens-1)
	}
}

func TestChosenVariant(t *testing.T) {
	g := newGenerator(t)
	for _, o := range g.Ops() {
		if len(o.Variants) < 2 {
			continue
		}
		last := o.Variants[len(o.Variants)-1]
		if got := genrun.ChosenVariant(o, map[string]string{o.Key: last.Name}); got.Name != last.Name {
			t.Errorf("ChosenVariant(%s, winner %s) = %s", o.Key, last.Name, got.Name)
		}
		if got := genrun.ChosenVariant(o, map[string]string{o.Key: "no such variant"}); got.Name != o.Variants[0].Name {
			t.Errorf("ChosenVariant(%s, an unknown winner) = %s, want the first, %s", o.Key, got.Name, o.Variants[0].Name)
		}
		return
	}
	t.Fatal("no op with two variants")
}
