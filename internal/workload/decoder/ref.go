package decoder

import "math"

// Eps is the layer norm's epsilon, as in GPT-2.
const Eps = 1e-5

// Reference returns the logits (Seq × Vocab, row-major) of one step
// computed on the CPU in float64 from the float32 weights: what the GPU
// step's float32 kernels approximate.
func Reference(c Config, w *Weights) []float64 {
	t, d, h := c.Seq, c.Width, c.Hidden()
	x := make([]float64, t*d)
	for i := range t {
		tok := int(w.Tokens[i])
		for j := range d {
			x[i*d+j] = float64(w.TokenEmbed[tok*d+j]) + float64(w.PosEmbed[i*d+j])
		}
	}
	for _, l := range w.Layers {
		a := layerNormRef(x, t, d, l.LN1Gain, l.LN1Bias)
		qkv := matmulRef(a, l.QKV, l.QKVBias, t, 3*d, d)
		att := attentionRef(qkv, t, d, c.Heads)
		addInto(x, matmulRef(att, l.Proj, l.ProjBias, t, d, d))
		a = layerNormRef(x, t, d, l.LN2Gain, l.LN2Bias)
		u := matmulRef(a, l.Up, l.UpBias, t, h, d)
		for i, v := range u {
			u[i] = GELU(v)
		}
		addInto(x, matmulRef(u, l.Down, l.DownBias, t, d, h))
	}
	a := layerNormRef(x, t, d, w.LNFGain, w.LNFBias)
	return matmulRef(a, w.Head, w.HeadBias, t, c.Vocab, d)
}

// GELU is GPT-2's tanh approximation of x·Φ(x).
func GELU(x float64) float64 {
	return 0.5 * x * (1 + math.Tanh(math.Sqrt(2/math.Pi)*(x+0.044715*x*x*x)))
}

// layerNormRef normalizes each of the rows of x (rows × cols) to mean 0
// and variance 1, then scales by gain and adds bias.
func layerNormRef(x []float64, rows, cols int, gain, bias []float32) []float64 {
	y := make([]float64, len(x))
	for r := range rows {
		row := x[r*cols : (r+1)*cols]
		var mean, vari float64
		for _, v := range row {
			mean += v
		}
		mean /= float64(cols)
		for _, v := range row {
			vari += (v - mean) * (v - mean)
		}
		inv := 1 / math.Sqrt(vari/float64(cols)+Eps)
		for j, v := range row {
			y[r*cols+j] = (v-mean)*inv*float64(gain[j]) + float64(bias[j])
		}
	}
	return y
}

// matmulRef returns x·w + b for x m×k and w k×n.
func matmulRef(x []float64, w, b []float32, m, n, k int) []float64 {
	y := make([]float64, m*n)
	for i := range m {
		row := y[i*n : (i+1)*n]
		for j := range row {
			row[j] = float64(b[j])
		}
		for p := range k {
			xv := x[i*k+p]
			wr := w[p*n : (p+1)*n]
			for j, wv := range wr {
				row[j] += xv * float64(wv)
			}
		}
	}
	return y
}

// attentionRef is causal multi-head attention over qkv (t × 3d: q, k, v
// side by side); it returns the heads' weighted sums side by side (t × d).
func attentionRef(qkv []float64, t, d, heads int) []float64 {
	dh := d / heads
	scale := 1 / math.Sqrt(float64(dh))
	out := make([]float64, t*d)
	p := make([]float64, t)
	for h := range heads {
		for i := range t {
			q := qkv[i*3*d+h*dh : i*3*d+h*dh+dh]
			mx := math.Inf(-1)
			for j := 0; j <= i; j++ {
				k := qkv[j*3*d+d+h*dh : j*3*d+d+h*dh+dh]
				var s float64
				for e := range dh {
					s += q[e] * k[e]
				}
				p[j] = s * scale
				mx = math.Max(mx, p[j])
			}
			var sum float64
			for j := 0; j <= i; j++ {
				p[j] = math.Exp(p[j] - mx)
				sum += p[j]
			}
			o := out[i*d+h*dh : i*d+h*dh+dh]
			for j := 0; j <= i; j++ {
				v := qkv[j*3*d+2*d+h*dh : j*3*d+2*d+h*dh+dh]
				for e := range dh {
					o[e] += p[j] / sum * v[e]
				}
			}
		}
	}
	return out
}

func addInto(x, y []float64) {
	for i := range x {
		x[i] += y[i]
	}
}

// MaxAbsError returns the largest |got[i] − want[i]| and the largest
// |want[i]|. A NaN in got makes the error +Inf.
func MaxAbsError(got []float32, want []float64) (maxErr, maxRef float64) {
	for i, w := range want {
		e := math.Abs(float64(got[i]) - w)
		if e != e {
			e = math.Inf(1)
		}
		maxErr = math.Max(maxErr, e)
		maxRef = math.Max(maxRef, math.Abs(w))
	}
	return maxErr, maxRef
}

// Tolerance is the largest max abs error a step's logits may have against
// [Reference], for logits of largest magnitude maxRef: float32 kernels
// through a few layers stay far inside it; a wrong kernel is far outside.
func Tolerance(maxRef float64) float64 { return 1e-4 * math.Max(1, maxRef) }
