//go:build cgo || js

package decoder

import (
	"context"
	"errors"
	"fmt"
	"maps"

	"github.com/streamgate/streamgate/gpu"
	"github.com/streamgate/streamgate/wgpu"
)

// Generator is a decoder with a KV cache on one wgpu device: a prefill
// over the prompt and a decode step, one token at a time, sharing the
// weights, the activations and, per layer, a key and a value cache of
// Seq rows (Seq is the maximum sequence length).
//
// The prefill embeds the prompt, stores each layer's keys and values at
// rows 0..len(prompt)−1 of the caches, attends over them causally and
// ends with the argmax of the last position's logits: the first token.
// The decode step runs the token at position p: it embeds it, projects
// its Q, K and V, stores K and V at row p, attends over rows 0..p, runs
// the MLP, writes that position's logits to row p of a history of
// logits and their argmax to a 4-byte buffer. The position and the token
// come from a 16-byte state buffer that [Generator.SetState] writes
// before each step, so the step's shapes, pipelines and bind groups are
// the same for every token: it is captured once and replayed per token.
// Greedy selection runs on the GPU: a token costs a 4-byte read-back
// ([Generator.ReadNext]) instead of the Vocab logits' and a CPU pass,
// and the logits are read once, after the generation, to be checked.
//
// Every buffer is made once (a graph's buffers are fixed). A Generator is
// not safe for concurrent use; [Generator.Release] releases it.
type Generator struct {
	Config
	W      *Weights
	Prompt []uint32

	m       *Model   // the builder: specs, buffers, ops, kernels (its launches: both lists)
	prefill []Launch // the prefill's launches
	decode  []Launch // the decode step's
	args    [][]gpu.Buffer

	state, next, plogits, history int // buffer indices

	// SetState's upload and ReadNext's destination, made once so that
	// neither allocates; allocations of their own, as memory handed to C
	// must hold no Go pointers.
	stateWords []uint32 // 4
	nextWord   []uint32 // 1
}

// NewGenerator uploads w (the weights of c; c.Seq the maximum sequence
// length) to d and builds the prefill of prompt and the decode step. It
// returns an error for a prompt [Config.ValidatePrompt] refuses (with one
// token to generate), and when a buffer or dispatch exceeds d's limits.
func NewGenerator(d *wgpu.Device, c Config, w *Weights, prompt []uint32) (g *Generator, err error) {
	if err := c.Validate(); err != nil {
		return nil, err
	}
	if err := c.ValidatePrompt(prompt, 1); err != nil {
		return nil, err
	}
	if c.Heads*len(prompt)*c.Seq > 1<<28 || len(prompt)*c.Vocab > 1<<28 || c.Seq*c.Vocab > 1<<28 {
		return nil, fmt.Errorf("decoder: a prompt of %d tokens with max sequence length %d and vocabulary %d is too large (2^28 elements per tensor at most)",
			len(prompt), c.Seq, c.Vocab)
	}
	g = &Generator{Config: c, W: w, Prompt: append([]uint32(nil), prompt...), stateWords: make([]uint32, 4), nextWord: make([]uint32, 1)}
	g.m = newBuilder(d, c, w)
	defer func() {
		if err != nil {
			g.Release()
			g = nil
		}
	}()
	if err := g.build(); err != nil {
		return nil, err
	}
	if err := g.m.allocate(); err != nil {
		return nil, err
	}
	all := append(append([]Launch(nil), g.prefill...), g.decode...)
	g.args = make([][]gpu.Buffer, len(all))
	for i, l := range all {
		g.args[i] = make([]gpu.Buffer, len(l.Args))
		for j, b := range l.Args {
			g.args[i][j] = g.m.bufs[b]
		}
	}
	return g, nil
}

// Release releases the generator's buffers.
func (g *Generator) Release() { g.m.Release() }

// Device returns the generator's device.
func (g *Generator) Device() *wgpu.Device { return g.m.d }

// Ops returns the ops of the prefill and the decode step, in first-use
// order: the decode's tunable ops have keys of their own (one-row shapes).
func (g *Generator) Ops() []*Op { return g.m.ops }

// Kernels returns every distinct kernel of every variant.
func (g *Generator) Kernels() []*gpu.Kernel { return g.m.Kernels() }

// Buffers returns the buffers of both steps; [Launch].Args index it.
func (g *Generator) Buffers() []BufferSpec { return g.m.specs }

// Buffer returns buffer i of [Generator.Buffers].
func (g *Generator) Buffer(i int) *wgpu.Buffer { return g.m.bufs[i] }

// PrefillPlan and DecodePlan return the launches of the prefill and of
// the decode step, in order.
func (g *Generator) PrefillPlan() []Launch { return g.prefill }

// DecodePlan: see [Generator.PrefillPlan].
func (g *Generator) DecodePlan() []Launch { return g.decode }

// StateBuffer, NextBuffer, PromptLogitsBuffer and HistoryBuffer are the
// indices in [Generator.Buffers] of the state (position, token), the
// argmax's 4-byte result, the prefill's logits (len(Prompt) × Vocab) and
// the decode steps' logits (Seq × Vocab, a row per position).
func (g *Generator) StateBuffer() int { return g.state }

// NextBuffer: see [Generator.StateBuffer].
func (g *Generator) NextBuffer() int { return g.next }

// PromptLogitsBuffer: see [Generator.StateBuffer].
func (g *Generator) PromptLogitsBuffer() int { return g.plogits }

// HistoryBuffer: see [Generator.StateBuffer].
func (g *Generator) HistoryBuffer() int { return g.history }

// Prefill calls launch for each launch of the prefill, in order, with its
// buffers in binding order. launch must not keep args.
func (g *Generator) Prefill(launch func(o *Op, args []gpu.Buffer) error) error {
	return g.run(g.prefill, g.args[:len(g.prefill)], launch)
}

// Decode calls launch for each launch of the decode step, in order, with
// its buffers in binding order: the step of the position and token
// [Generator.SetState] wrote. launch must not keep args.
func (g *Generator) Decode(launch func(o *Op, args []gpu.Buffer) error) error {
	return g.run(g.decode, g.args[len(g.prefill):], launch)
}

func (g *Generator) run(ls []Launch, args [][]gpu.Buffer, launch func(*Op, []gpu.Buffer) error) error {
	for i, l := range ls {
		if err := launch(l.Op, args[i]); err != nil {
			return fmt.Errorf("launch %d (%s): %w", i, l.Op.Name, err)
		}
	}
	return nil
}

// SetState writes the position and the token of the next decode step.
// The position must be at least len(Prompt) (the prefill's rows are
// 0..len(Prompt)−1) and below Seq, the token below Vocab. Launches and
// replays recorded before it see the old state (wgpu.Write's order). It
// does not allocate.
func (g *Generator) SetState(pos int, token uint32) error {
	if pos < len(g.Prompt) || pos >= g.Seq {
		return fmt.Errorf("decoder: decode position %d outside %d..%d (after the prompt, below the maximum sequence length)", pos, len(g.Prompt), g.Seq-1)
	}
	if int(token) >= g.Vocab {
		return fmt.Errorf("decoder: decode token %d at position %d is not below the vocabulary size %d", token, pos, g.Vocab)
	}
	g.stateWords[0], g.stateWords[1] = uint32(pos), token
	return wgpu.Write(g.m.bufs[g.state], 0, g.stateWords)
}

// ReadNext reads the token the last prefill or decode step chose: 4
// bytes. It returns an error for a choice not below Vocab (the argmax of
// logits that are all NaN). Once the device's staging pool holds a
// 4-byte buffer it does not allocate.
func (g *Generator) ReadNext(ctx context.Context) (uint32, error) {
	if err := wgpu.ReadInto(ctx, g.m.bufs[g.next], 0, g.nextWord); err != nil {
		return 0, err
	}
	if t := g.nextWord[0]; int64(t) >= int64(g.Vocab) {
		return 0, fmt.Errorf("decoder: the argmax chose token %d, not below the vocabulary size %d (logits not numbers?)", t, g.Vocab)
	}
	return g.nextWord[0], nil
}

// ReadLogits reads the logits of positions 0..len(Prompt)+decoded−1: the
// prefill's rows, then the rows the decode steps at positions len(Prompt)..
// wrote into the history. A row per position, Vocab each.
func (g *Generator) ReadLogits(ctx context.Context, decoded int) ([][]float32, error) {
	p := len(g.Prompt)
	if decoded < 0 || p+decoded > g.Seq {
		return nil, fmt.Errorf("decoder: ReadLogits of %d decoded positions after a prompt of %d, maximum sequence length %d", decoded, p, g.Seq)
	}
	pre, err := wgpu.Read[float32](ctx, g.m.bufs[g.plogits], 0, p*g.Vocab)
	if err != nil {
		return nil, err
	}
	var hist []float32
	if decoded > 0 {
		if hist, err = wgpu.Read[float32](ctx, g.m.bufs[g.history], uint64(4*p*g.Vocab), decoded*g.Vocab); err != nil {
			return nil, err
		}
	}
	rows := make([][]float32, 0, p+decoded)
	for i := range p {
		rows = append(rows, pre[i*g.Vocab:(i+1)*g.Vocab])
	}
	for i := range decoded {
		rows = append(rows, hist[i*g.Vocab:(i+1)*g.Vocab])
	}
	return rows, nil
}

// build lays out both steps' buffers, ops and launches: the stages of
// [Config.prefillStages] over the prompt's rows and those of
// [Config.decodeStages] over one, sharing the weights, the activations
// (the prefill's rows; the decode step uses the first) and the caches.
func (g *Generator) build() error {
	m, c, w := g.m, g.Config, g.W
	if len(w.Layers) != c.Layers || len(w.PosEmbed) != c.Seq*c.Width || len(w.Head) != c.Width*c.Vocab {
		return errors.New("decoder: the weights are not of this config")
	}
	p := len(g.Prompt)
	pre := map[string]int{
		"tokens": m.buffer("prompt", p, bytesOf(g.Prompt), false),
		"base":   m.buffer("prefill/base", 4, bytesOf([]uint32{0, 0, 0, 0}), false), // the prefill's KV rows start at 0
	}
	g.state = m.buffer("state", 4, bytesOf([]uint32{uint32(p), g.Prompt[p-1], 0, 0}), false)
	m.addActivations(pre, shape{rows: p, keys: c.Seq}, false)
	g.plogits = m.buffer("prompt/logits", p*c.Vocab, nil, false)
	pre["logits"] = g.plogits
	logits := m.buffer("logits", c.Vocab, nil, false)
	g.history = m.buffer("history", c.Seq*c.Vocab, nil, false)
	g.next = m.buffer("next", 1, nil, false)
	pre["next"] = g.next
	for i := range c.Layers {
		for _, s := range layerStages(i, cached) {
			if s.op == opKVStore {
				pre[s.args[2]] = m.buffer(s.args[2], c.Seq*c.Width, nil, false)
				pre[s.args[3]] = m.buffer(s.args[3], c.Seq*c.Width, nil, false)
			}
		}
	}
	dec := maps.Clone(pre)
	dec["base"], dec["state"], dec["logits"], dec["history"] = g.state, g.state, logits, g.history

	m.launchStages(c.prefillStages(), shape{rows: p, keys: c.Seq}, pre)
	np := len(m.launches)
	m.launchStages(c.decodeStages(), shape{rows: 1, keys: c.Seq}, dec)
	g.prefill, g.decode = m.launches[:np:np], m.launches[np:]
	return nil
}
