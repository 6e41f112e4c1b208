//go:build cgo

package decoder_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/streamgate/streamgate/client"
	"github.com/streamgate/streamgate/gpu"
	"github.com/streamgate/streamgate/internal/workload/decoder"
	"github.com/streamgate/streamgate/registry"
	"github.com/streamgate/streamgate/streamgatetest"
)

// smallGen is small's decoder with a maximum sequence length of 16: a
// prompt of 5 tokens and 8 generated fill 12 positions.
var smallGen = decoder.Config{Layers: 2, Width: 36, Heads: 3, Seq: 16, Vocab: 50, Seed: 7}

const (
	smallPrompt = 5
	smallTokens = 8
)

// generate runs g's prefill and n−1 decode steps through launch, feeding
// each chosen token back (shift moves the decode positions, to break the
// step on purpose), and returns the tokens and every position's logits.
func generate(t *testing.T, g *decoder.Generator, c *client.Client, launch func(*decoder.Op, []gpu.Buffer) error, n, shift int) ([]uint32, [][]float32) {
	t.Helper()
	ctx := context.Background()
	if err := g.Prefill(launch); err != nil {
		t.Fatalf("Prefill: %v", err)
	}
	tok, err := g.ReadNext(ctx)
	if err != nil {
		t.Fatalf("ReadNext after the prefill: %v", err)
	}
	tokens := []uint32{tok}
	for i := 1; i < n; i++ {
		if err := g.SetState(len(g.Prompt)+i-1+shift, tok); err != nil {
			t.Fatalf("SetState: %v", err)
		}
		if err := g.Decode(launch); err != nil {
			t.Fatalf("Decode %d: %v", i, err)
		}
		if tok, err = g.ReadNext(ctx); err != nil {
			t.Fatalf("ReadNext %d: %v", i, err)
		}
		tokens = append(tokens, tok)
	}
	if err := c.Sync(ctx); err != nil {
		t.Fatalf("Sync: %v", err)
	}
	logits, err := g.ReadLogits(ctx, n-1+shift)
	if err != nil {
		t.Fatalf("ReadLogits: %v", err)
	}
	return tokens, logits[:len(g.Prompt)+n-1]
}

func newGenerator(t testing.TB) (*decoder.Generator, decoder.Generation, *client.Client) {
	t.Helper()
	d := streamgatetest.OpenDevice(t)
	w := decoder.NewWeights(smallGen)
	prompt := w.Tokens[:smallPrompt]
	g, err := decoder.NewGenerator(d, smallGen, w, prompt)
	if err != nil {
		t.Fatalf("NewGenerator: %v", err)
	}
	t.Cleanup(g.Release)
	c := client.New(d, client.WithRegistry(registry.New()))
	t.Cleanup(func() { c.Close() })
	return g, decoder.ReferenceGenerate(smallGen, w, prompt, smallTokens), c
}

// TestGenerateMatchesReference generates with every variant of every op
// (the other ops on their first) and checks each token and each
// position's logits against the float64 KV-cache reference; the logits'
// error stays under 1e-4, far inside the tolerance.
func TestGenerateMatchesReference(t *testing.T) {
	g, want, c := newGenerator(t)
	if got, want := len(g.PrefillPlan()), smallGen.PrefillLaunches(); got != want {
		t.Errorf("len(PrefillPlan()) = %d, want %d", got, want)
	}
	if got, want := len(g.DecodePlan()), smallGen.DecodeLaunches(); got != want {
		t.Errorf("len(DecodePlan()) = %d, want %d", got, want)
	}
	_, pre, dec := decoder.StageOps(smallGen)
	if got := opNames(g.PrefillPlan()); !slices.Equal(got, pre) {
		t.Errorf("the prefill's ops = %v, want the description's %v", got, pre)
	}
	if got := opNames(g.DecodePlan()); !slices.Equal(got, dec) {
		t.Errorf("the decode step's ops = %v, want the description's %v", got, dec)
	}
	keys := 0
	for _, o := range g.Ops() {
		if o.Tunable() {
			keys++
		}
		for _, v := range o.Variants {
			tokens, logits := generate(t, g, c, decoder.Chosen(c, map[string]string{o.Key: v.Name}), smallTokens, 0)
			maxErr, err := decoder.CheckGeneration(want, tokens, logits, smallPrompt)
			if err != nil {
				t.Fatalf("%s %s: %v", o.Name, v.Name, err)
			}
			if maxErr >= 1e-4 {
				t.Errorf("%s %s: logits max abs error %.3g, want under 1e-4", o.Name, v.Name, maxErr)
			}
		}
	}
	// Prefill and decode: 5 matmul shapes each, the layer norm and the
	// softmax each.
	if keys != 14 {
		t.Errorf("%d tunable keys, want 14", keys)
	}
	t.Logf("tokens %v", want.Tokens)
}

// TestGenerateBrokenStepCaught: a decode step whose position is one off
// (its keys stored and attended at the wrong rows, its position
// embedding the next one's) fails the check, which names the first
// generated position.
func TestGenerateBrokenStepCaught(t *testing.T) {
	g, want, c := newGenerator(t)
	tokens, logits := generate(t, g, c, decoder.Chosen(c, nil), smallTokens, 1)
	_, err := decoder.CheckGeneration(want, tokens, logits, smallPrompt)
	if err == nil || !strings.Contains(err.Error(), "position 5:") {
		t.Fatalf("CheckGeneration of a step one position off = %v, want an error at position 5", err)
	}
}

// TestDecodeReplay captures the prefill and the decode step once and
// replays them: the tokens are the reference's, and a token — the state's
// write, the replay and the 4-byte read-back — allocates nothing.
func TestDecodeReplay(t *testing.T) {
	g, want, c := newGenerator(t)
	launch := decoder.Chosen(c, nil)
	pre, err := c.Capture(func() error { return g.Prefill(launch) })
	if err != nil {
		t.Fatalf("Capture prefill: %v", err)
	}
	dec, err := c.Capture(func() error { return g.Decode(launch) })
	if err != nil {
		t.Fatalf("Capture decode: %v", err)
	}
	if pre.Len() != smallGen.PrefillLaunches() || dec.Len() != smallGen.DecodeLaunches() {
		t.Fatalf("graphs of %d and %d launches, want %d and %d", pre.Len(), dec.Len(), smallGen.PrefillLaunches(), smallGen.DecodeLaunches())
	}
	ctx := context.Background()
	replay := func() []uint32 {
		if err := c.Replay(pre); err != nil {
			t.Fatalf("Replay prefill: %v", err)
		}
		tok, err := g.ReadNext(ctx)
		if err != nil {
			t.Fatalf("ReadNext: %v", err)
		}
		tokens := []uint32{tok}
		for i := 1; i < smallTokens; i++ {
			if err := g.SetState(smallPrompt+i-1, tok); err != nil {
				t.Fatalf("SetState: %v", err)
			}
			if err := c.Replay(dec); err != nil {
				t.Fatalf("Replay decode: %v", err)
			}
			if tok, err = g.ReadNext(ctx); err != nil {
				t.Fatalf("ReadNext: %v", err)
			}
			tokens = append(tokens, tok)
		}
		return tokens
	}
	tokens := replay()
	logits, err := g.ReadLogits(ctx, smallTokens-1)
	if err != nil {
		t.Fatalf("ReadLogits: %v", err)
	}
	if _, err := decoder.CheckGeneration(want, tokens, logits, smallPrompt); err != nil {
		t.Fatalf("replayed: %v", err)
	}
	if again := replay(); !equal(again, tokens) {
		t.Errorf("a second replayed generation = %v, want %v", again, tokens)
	}
	// The replay itself allocates nothing; the flush that submits it (at
	// the read-back) allocates twice, in wgpu: the error scopes of the
	// command encoder's creation and finish escape to the heap
	// (wgpu/native.go's createCommandEncoder and finish pass &s to C).
	if allocs := testing.AllocsPerRun(20, func() {
		if err := c.Replay(dec); err != nil {
			t.Fatalf("Replay: %v", err)
		}
	}); allocs != 0 {
		t.Errorf("a replay allocates %v times, want 0", allocs)
	}
	if err := c.Sync(ctx); err != nil {
		t.Fatalf("Sync: %v", err)
	}
	pos := 0
	allocs := testing.AllocsPerRun(20, func() {
		if err := g.SetState(smallPrompt+pos%(smallTokens-1), want.Tokens[pos%(smallTokens-1)]); err != nil {
			t.Fatalf("SetState: %v", err)
		}
		if err := c.Replay(dec); err != nil {
			t.Fatalf("Replay: %v", err)
		}
		if _, err := g.ReadNext(ctx); err != nil {
			t.Fatalf("ReadNext: %v", err)
		}
		pos++
	})
	if allocs > 2 {
		t.Errorf("a replayed token allocates %v times, want at most 2 (the flush's)", allocs)
	}
}

func equal(a, b []uint32) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestGeneratorRefuses: bad prompts and states are errors.
func TestGeneratorRefuses(t *testing.T) {
	g, _, _ := newGenerator(t)
	d := g.Device()
	w := decoder.NewWeights(smallGen)
	for _, tc := range []struct {
		name   string
		prompt []uint32
		want   string
	}{
		{"empty", nil, "empty"},
		{"token", []uint32{1, 50}, "prompt token 1 is 50"},
		{"long", make([]uint32, 17), "over the maximum sequence length 16"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if g, err := decoder.NewGenerator(d, smallGen, w, tc.prompt); err == nil || !strings.Contains(err.Error(), tc.want) {
				if g != nil {
					g.Release()
				}
				t.Errorf("NewGenerator(%v) = %v, want an error containing %q", tc.prompt, err, tc.want)
			}
		})
	}
	for _, tc := range []struct {
		pos int
		tok uint32
	}{{smallPrompt - 1, 0}, {16, 0}, {smallPrompt, 50}} {
		if err := g.SetState(tc.pos, tc.tok); err == nil {
			t.Errorf("SetState(%d, %d) = nil, want an error", tc.pos, tc.tok)
		}
	}
}
