package decoder

import "math"

// Eps is the layer norm's epsilon, as in GPT-2.
const Eps = 1e-5

// Reference returns the logits (Seq × Vocab, row-major) of one step
// computed on the CPU in float64 from the float32 weights: what the GPU
// step's float32 kernels approximate. It runs the stages the [Model]
// launches.
func Reference(c Config, w *Weights) []float64 {
	pos := make([]int, c.Seq)
	for i := range pos {
		pos[i] = i
	}
	return newRefStep(c, w).run(c.modelStages(), w.Tokens, pos)
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
