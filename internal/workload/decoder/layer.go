package decoder

import "fmt"

// The decoder is described once, here: a step is a list of stages, each
// an op and the tensors it binds, by name, in binding order. The GPU steps
// (a [Model]'s pass over the sequence; a [Generator]'s prefill and decode
// step, against a KV cache) launch these lists, the CPU references
// ([Reference], [ReferenceGenerate]) run them, and the launch counts are
// their lengths. An op's kernels, variants, tune key, sizes and
// workgroups are made from its name and the step's [shape] in one place
// (Model.opOf); its float64 reference likewise (refStep.run).

// The ops of a step, by the names their launches carry ([Op].Name).
const (
	opEmbed        = "embed"          // x = wte[token] + wpe[position], a row per token: tokens, wte, wpe → x
	opEmbedAt      = "embed-at"       // the same for one row, its position and token from the state: state, wte, wpe → x
	opLayerNorm    = "layernorm"      // in, gain, bias → out (tuned)
	opMatmul       = "matmul"         // out = in·w + bias: in, w, bias → out (tuned, a key per shape)
	opAttnScores   = "attn-scores"    // causal: q·k/√dh among the step's rows: qkv → scores
	opSoftmax      = "softmax"        // each row of the scores, masked past its position: scores → probs (tuned)
	opAttnValues   = "attn-values"    // causal: the probabilities' weighted sum of v: probs, qkv → att
	opKVStore      = "kv-store"       // the rows' k and v into the layer's cache at rows base..: base, qkv → k, v
	opAttnScoresKV = "attn-scores-kv" // q·k/√dh against the cache's rows: base, qkv, k → scores
	opAttnValuesKV = "attn-values-kv" // the weighted sum of the cache's v: base, probs, v → att
	opAdd          = "add"            // x += y: x, y
	opGELU         = "gelu"           // in → out
	opArgmax       = "argmax"         // the last row's largest logit: logits → next
	opStoreRow     = "store-row"      // the logits into the history at the state's position: state, logits → history
)

// attention is how a step's layers attend.
type attention int

const (
	// causal: each row over the step's rows up to its own (a Model's
	// pass over the whole sequence).
	causal attention = iota
	// cached: the rows' keys and values stored in the layer's cache
	// first, each row then attending over the cache's rows up to its
	// position (a Generator's prefill and decode step).
	cached
)

// stage is one launch of a step: its op and its tensors in binding order.
// A layer's weights and caches are named "layer<i>/<name>"; the other
// weights, the activations and the step's inputs and outputs by the names
// below (the GPU's sizes uniform, bound first, is not named).
type stage struct {
	op   string
	args []string
}

// shape is what a step's ops are sized by: its query rows, and the key
// rows its attention reads (rows for causal attention; the cache's, Seq,
// for cached).
type shape struct{ rows, keys int }

// activations are the step's intermediate tensors, rows of
// [Config.width] each.
var activations = []string{"x", "ln", "qkv", "scores", "probs", "att", "proj", "up", "gelu"}

// width returns the columns of a row of activation (or logits) name in a
// step whose attention reads keys rows.
func (c Config) width(name string, keys int) int {
	switch name {
	case "x", "ln", "att", "proj": // the residual stream, its layer norm, attention's output, a projection's
		return c.Width
	case "qkv":
		return 3 * c.Width
	case "scores", "probs": // a row of keys per head
		return c.Heads * keys
	case "up", "gelu":
		return c.Hidden()
	case "logits":
		return c.Vocab
	}
	panic("decoder: no activation " + name)
}

// layerStages returns layer i's stages, attending by a: a layer norm, the
// QKV projection, attention (with a cache, its store first), the output
// projection and a residual add; a layer norm, the MLP (up, GELU, down)
// and a residual add.
func layerStages(i int, a attention) []stage {
	w := func(name string) string { return fmt.Sprintf("layer%d/%s", i, name) }
	s := []stage{
		{opLayerNorm, []string{"x", w("ln1.gain"), w("ln1.bias"), "ln"}},
		{opMatmul, []string{"ln", w("qkv"), w("qkv.bias"), "qkv"}},
	}
	switch a {
	case causal:
		s = append(s,
			stage{opAttnScores, []string{"qkv", "scores"}},
			stage{opSoftmax, []string{"scores", "probs"}},
			stage{opAttnValues, []string{"probs", "qkv", "att"}})
	case cached:
		s = append(s,
			stage{opKVStore, []string{"base", "qkv", w("k"), w("v")}},
			stage{opAttnScoresKV, []string{"base", "qkv", w("k"), "scores"}},
			stage{opSoftmax, []string{"scores", "probs"}},
			stage{opAttnValuesKV, []string{"base", "probs", w("v"), "att"}})
	}
	return append(s,
		stage{opMatmul, []string{"att", w("proj"), w("proj.bias"), "proj"}},
		stage{opAdd, []string{"x", "proj"}},
		stage{opLayerNorm, []string{"x", w("ln2.gain"), w("ln2.bias"), "ln"}},
		stage{opMatmul, []string{"ln", w("up"), w("up.bias"), "up"}},
		stage{opGELU, []string{"up", "gelu"}},
		stage{opMatmul, []string{"gelu", w("down"), w("down.bias"), "proj"}},
		stage{opAdd, []string{"x", "proj"}})
}

// forward returns a step's stages up to its logits: the embedding (opEmbed
// of the tokens, or opEmbedAt of the state), the layers attending by a,
// the final layer norm and the logits.
func (c Config) forward(embed string, a attention) []stage {
	in := "tokens"
	if embed == opEmbedAt {
		in = "state"
	}
	s := []stage{{embed, []string{in, "wte", "wpe", "x"}}}
	for i := range c.Layers {
		s = append(s, layerStages(i, a)...)
	}
	return append(s,
		stage{opLayerNorm, []string{"x", "lnf.gain", "lnf.bias", "ln"}},
		stage{opMatmul, []string{"ln", "head", "head.bias", "logits"}})
}

// modelStages is a [Model]'s step: the forward pass over the sequence,
// attending causally.
func (c Config) modelStages() []stage { return c.forward(opEmbed, causal) }

// prefillStages is a [Generator]'s prefill: the prompt's rows against the
// cache from row base (0), then the argmax of the last row's logits.
func (c Config) prefillStages() []stage {
	return append(c.forward(opEmbed, cached), stage{opArgmax, []string{"logits", "next"}})
}

// decodeStages is a [Generator]'s decode step: the state's row against
// the cache from its position (base is the state), the argmax of its
// logits and their store in the history.
func (c Config) decodeStages() []stage {
	return append(c.forward(opEmbedAt, cached),
		stage{opArgmax, []string{"logits", "next"}},
		stage{opStoreRow, []string{"state", "logits", "history"}})
}

// Launches is how many launches a [Model]'s step makes.
func (c Config) Launches() int { return len(c.modelStages()) }

// PrefillLaunches is how many launches a [Generator]'s prefill makes.
func (c Config) PrefillLaunches() int { return len(c.prefillStages()) }

// DecodeLaunches is how many launches a [Generator]'s decode step makes.
func (c Config) DecodeLaunches() int { return len(c.decodeStages()) }

// named returns w's tensors by the names stages bind them by.
func (w *Weights) named() map[string][]float32 {
	t := map[string][]float32{
		"wte": w.TokenEmbed, "wpe": w.PosEmbed,
		"lnf.gain": w.LNFGain, "lnf.bias": w.LNFBias,
		"head": w.Head, "head.bias": w.HeadBias,
	}
	for i, l := range w.Layers {
		p := fmt.Sprintf("layer%d/", i)
		for name, v := range map[string][]float32{
			"ln1.gain": l.LN1Gain, "ln1.bias": l.LN1Bias, "qkv": l.QKV, "qkv.bias": l.QKVBias,
			"proj": l.Proj, "proj.bias": l.ProjBias, "ln2.gain": l.LN2Gain, "ln2.bias": l.LN2Bias,
			"up": l.Up, "up.bias": l.UpBias, "down": l.Down, "down.bias": l.DownBias,
		} {
			t[p+name] = v
		}
	}
	return t
}
