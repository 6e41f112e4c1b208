package decoder

import "math"

// refStep runs a step's stages on the CPU in float64, from the float32
// weights, each op as its kernel computes it. Its tensors, the layers' KV
// caches among them, persist from one run to the next.
type refStep struct {
	c       Config
	weights map[string][]float32
	t       map[string][]float64 // activations, logits and caches, by name
}

// newRefStep returns a refStep of c's decoder with weights w and empty
// KV caches (Seq rows a layer).
func newRefStep(c Config, w *Weights) *refStep {
	r := &refStep{c: c, weights: w.named(), t: map[string][]float64{}}
	for i := range c.Layers {
		for _, s := range layerStages(i, cached) {
			if s.op == opKVStore {
				r.t[s.args[2]], r.t[s.args[3]] = make([]float64, c.Seq*c.Width), make([]float64, c.Seq*c.Width)
			}
		}
	}
	return r
}

// run runs stages over a row per token, tokens[i] at position pos[i]
// (row i attends over the key rows 0..pos[i]: the step's own rows for
// causal attention, the cache's for cached), and returns the logits, a
// row of Vocab per token.
func (r *refStep) run(stages []stage, tokens []uint32, pos []int) []float64 {
	c, t, rows := r.c, r.t, len(tokens)
	d, heads := c.Width, c.Heads
	keys := c.Seq // a row's scores: room for every position
	width := func(name string) int { return c.width(name, keys) }
	for _, s := range stages {
		a := s.args
		switch s.op {
		case opEmbed, opEmbedAt:
			wte, wpe := r.weights[a[1]], r.weights[a[2]]
			x := make([]float64, rows*d)
			for i, tok := range tokens {
				for j := range d {
					x[i*d+j] = float64(wte[int(tok)*d+j]) + float64(wpe[pos[i]*d+j])
				}
			}
			t[a[3]] = x
		case opLayerNorm:
			t[a[3]] = layerNormRef(t[a[0]], rows, width(a[0]), r.weights[a[1]], r.weights[a[2]])
		case opMatmul:
			t[a[3]] = matmulRef(t[a[0]], r.weights[a[1]], r.weights[a[2]], rows, width(a[3]), width(a[0]))
		case opKVStore:
			qkv, k, v := t[a[1]], t[a[2]], t[a[3]]
			for i, p := range pos {
				copy(k[p*d:(p+1)*d], qkv[i*3*d+d:i*3*d+2*d])
				copy(v[p*d:(p+1)*d], qkv[i*3*d+2*d:(i+1)*3*d])
			}
		case opAttnScores: // k: the step's rows of qkv
			t[a[1]] = scoresRef(t[a[0]], t[a[0]][d:], 3*d, pos, keys, d, heads)
		case opAttnScoresKV: // k: the cache's rows
			t[a[3]] = scoresRef(t[a[1]], t[a[2]], d, pos, keys, d, heads)
		case opSoftmax:
			t[a[1]] = softmaxRef(t[a[0]], pos, keys, heads)
		case opAttnValues:
			t[a[2]] = valuesRef(t[a[0]], t[a[1]][2*d:], 3*d, pos, keys, d, heads)
		case opAttnValuesKV:
			t[a[3]] = valuesRef(t[a[1]], t[a[2]], d, pos, keys, d, heads)
		case opAdd:
			addInto(t[a[0]], t[a[1]])
		case opGELU:
			in := t[a[0]]
			out := make([]float64, len(in))
			for i, v := range in {
				out[i] = GELU(v)
			}
			t[a[1]] = out
		default:
			panic("decoder: no CPU reference of op " + s.op)
		}
	}
	return t["logits"]
}

// scoresRef returns each head's scores q_i·k_j/√dh of the query rows i
// (q: the first d columns of each row of qkv, 3d wide) against the key
// rows j ≤ pos[i] (row j of k at k[j*stride:]), heads × rows × keys; the
// later rows are left 0, as the softmax masks them.
func scoresRef(qkv, k []float64, stride int, pos []int, keys, d, heads int) []float64 {
	dh := d / heads
	scale := 1 / math.Sqrt(float64(dh))
	rows := len(pos)
	s := make([]float64, heads*rows*keys)
	for h := range heads {
		for i := range rows {
			q := qkv[i*3*d+h*dh : i*3*d+h*dh+dh]
			row := s[(h*rows+i)*keys:]
			for j := 0; j <= pos[i]; j++ {
				kj := k[j*stride+h*dh : j*stride+h*dh+dh]
				var dot float64
				for e := range dh {
					dot += q[e] * kj[e]
				}
				row[j] = dot * scale
			}
		}
	}
	return s
}

// softmaxRef returns the softmax of each row of scores (heads × rows ×
// keys) over its columns 0..pos[i], the later ones 0.
func softmaxRef(scores []float64, pos []int, keys, heads int) []float64 {
	rows := len(pos)
	p := make([]float64, len(scores))
	for h := range heads {
		for i := range rows {
			in, out := scores[(h*rows+i)*keys:], p[(h*rows+i)*keys:]
			mx := math.Inf(-1)
			for j := 0; j <= pos[i]; j++ {
				mx = math.Max(mx, in[j])
			}
			var sum float64
			for j := 0; j <= pos[i]; j++ {
				out[j] = math.Exp(in[j] - mx)
				sum += out[j]
			}
			for j := 0; j <= pos[i]; j++ {
				out[j] /= sum
			}
		}
	}
	return p
}

// valuesRef returns each head's weighted sum of the value rows j ≤ pos[i]
// (row j of v at v[j*stride:]) by the probabilities probs (heads × rows ×
// keys), the heads side by side (rows × d).
func valuesRef(probs, v []float64, stride int, pos []int, keys, d, heads int) []float64 {
	dh := d / heads
	rows := len(pos)
	out := make([]float64, rows*d)
	for h := range heads {
		for i := range rows {
			p, o := probs[(h*rows+i)*keys:], out[i*d+h*dh:i*d+h*dh+dh]
			for j := 0; j <= pos[i]; j++ {
				vj := v[j*stride+h*dh : j*stride+h*dh+dh]
				for e := range dh {
					o[e] += p[j] * vj[e]
				}
			}
		}
	}
	return out
}
