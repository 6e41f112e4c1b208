package decoder

import (
	"fmt"
	"math"
	"math/rand/v2"
)

// Config is a decoder's size and the seed of its weights and tokens.
type Config struct {
	Layers int    // decoder blocks
	Width  int    // the model width (embedding size), a multiple of Heads
	Heads  int    // attention heads
	Seq    int    // tokens per step (the sequence length)
	Vocab  int    // vocabulary size: the logits' columns
	Seed   uint64 // seed of the weights and the tokens
}

// Hidden is the MLP's inner width: 4 × Width, as in GPT-2.
func (c Config) Hidden() int { return 4 * c.Width }

// HeadDim is the width of one attention head.
func (c Config) HeadDim() int { return c.Width / c.Heads }

// Validate reports a size that is not positive or a width that the heads
// do not divide.
func (c Config) Validate() error {
	switch {
	case c.Layers < 1 || c.Width < 1 || c.Heads < 1 || c.Seq < 1 || c.Vocab < 1:
		return fmt.Errorf("decoder: sizes must be positive, got layers=%d width=%d heads=%d seq=%d vocab=%d",
			c.Layers, c.Width, c.Heads, c.Seq, c.Vocab)
	case c.Width%c.Heads != 0:
		return fmt.Errorf("decoder: width %d is not a multiple of heads %d", c.Width, c.Heads)
	case c.Seq*c.Hidden() > 1<<28 || c.Heads*c.Seq*c.Seq > 1<<28 || c.Width*c.Vocab > 1<<28 || c.Seq*c.Vocab > 1<<28:
		return fmt.Errorf("decoder: sizes layers=%d width=%d heads=%d seq=%d vocab=%d are too large (2^28 elements per tensor at most)",
			c.Layers, c.Width, c.Heads, c.Seq, c.Vocab)
	}
	return nil
}

// Layer is one decoder block's weights, row-major: a projection W is
// in × out, so y = x·W + b.
type Layer struct {
	LN1Gain, LN1Bias []float32 // Width
	QKV, QKVBias     []float32 // Width × 3·Width, 3·Width: q, k, v side by side
	Proj, ProjBias   []float32 // Width × Width, Width
	LN2Gain, LN2Bias []float32 // Width
	Up, UpBias       []float32 // Width × Hidden, Hidden
	Down, DownBias   []float32 // Hidden × Width, Width
}

// Weights are a decoder's parameters and the step's input tokens.
type Weights struct {
	Tokens           []uint32  // Seq token ids, each below Vocab
	TokenEmbed       []float32 // Vocab × Width
	PosEmbed         []float32 // Seq × Width
	Layers           []Layer
	LNFGain, LNFBias []float32 // Width
	Head, HeadBias   []float32 // Width × Vocab (untied from TokenEmbed), Vocab (zeros)
}

// NewWeights returns c's weights, reproducible from c.Seed: projections
// uniform in ±1/√in (so activations stay of order 1), biases and
// embeddings small, layer-norm gains near 1.
func NewWeights(c Config) *Weights {
	rng := rand.New(rand.NewPCG(c.Seed, 0x9e3779b97f4a7c15))
	uniform := func(n int, scale, offset float64) []float32 {
		v := make([]float32, n)
		for i := range v {
			v[i] = float32(offset + scale*(2*rng.Float64()-1))
		}
		return v
	}
	proj := func(in, out int) []float32 { return uniform(in*out, 1/math.Sqrt(float64(in)), 0) }
	d, h := c.Width, c.Hidden()
	w := &Weights{
		Tokens:     make([]uint32, c.Seq),
		TokenEmbed: uniform(c.Vocab*d, 0.5, 0),
		PosEmbed:   uniform(c.Seq*d, 0.1, 0),
	}
	for i := range w.Tokens {
		w.Tokens[i] = uint32(rng.IntN(c.Vocab))
	}
	for range c.Layers {
		w.Layers = append(w.Layers, Layer{
			LN1Gain: uniform(d, 0.1, 1), LN1Bias: uniform(d, 0.1, 0),
			QKV: proj(d, 3*d), QKVBias: uniform(3*d, 0.05, 0),
			Proj: proj(d, d), ProjBias: uniform(d, 0.05, 0),
			LN2Gain: uniform(d, 0.1, 1), LN2Bias: uniform(d, 0.1, 0),
			Up: proj(d, h), UpBias: uniform(h, 0.05, 0),
			Down: proj(h, d), DownBias: uniform(d, 0.05, 0),
		})
	}
	w.LNFGain, w.LNFBias = uniform(d, 0.1, 1), uniform(d, 0.1, 0)
	w.Head, w.HeadBias = proj(d, c.Vocab), make([]float32, c.Vocab)
	return w
}
