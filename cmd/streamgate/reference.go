package main

import (
	"fmt"
	"math"
	"math/rand/v2"
)

// float32Eps is the spacing of float32 values at 1 (2^-23).
const float32Eps = 1.0 / (1 << 23)

// randomMatrix returns rows×cols values uniform in [-1, 1), reproducible
// from seed.
func randomMatrix(rows, cols int, seed uint64) []float32 {
	rng := rand.New(rand.NewPCG(seed, uint64(rows)<<32|uint64(cols)))
	v := make([]float32, rows*cols)
	for i := range v {
		v[i] = float32(2*rng.Float64() - 1)
	}
	return v
}

// matmulRef returns C = A·B for row-major A (m×k) and B (k×n), accumulated
// in float64, and for each element of C the sum of |a·b| over its products:
// the scale of the rounding error a float32 kernel may make.
func matmulRef(a, b []float32, m, n, k int) (c []float32, scale []float64) {
	c = make([]float32, m*n)
	scale = make([]float64, m*n)
	for i := 0; i < m; i++ {
		for j := 0; j < n; j++ {
			var acc, abs float64
			for p := 0; p < k; p++ {
				x := float64(a[i*k+p]) * float64(b[p*n+j])
				acc += x
				abs += math.Abs(x)
			}
			c[i*n+j] = float32(acc)
			scale[i*n+j] = abs
		}
	}
	return c, scale
}

// softmaxRef returns the softmax of each row of x (rows×cols, row-major),
// computed in float64.
func softmaxRef(x []float32, rows, cols int) []float32 {
	y := make([]float32, len(x))
	for r := 0; r < rows; r++ {
		row := x[r*cols : (r+1)*cols]
		mx := math.Inf(-1)
		for _, v := range row {
			mx = math.Max(mx, float64(v))
		}
		var sum float64
		for _, v := range row {
			sum += math.Exp(float64(v) - mx)
		}
		for j, v := range row {
			y[r*cols+j] = float32(math.Exp(float64(v)-mx) / sum)
		}
	}
	return y
}

// sumRef returns the sum of x and the sum of |x|, in float64.
func sumRef(x []float32) (sum, abs float64) {
	for _, v := range x {
		sum += float64(v)
		abs += math.Abs(float64(v))
	}
	return sum, abs
}

// checkMatmul reports whether got is A·B within float32 rounding: each
// element within k·eps·Σ|a·b| (the classic bound for a k-term dot product)
// plus 1e-6. It returns the largest error and the first element out of
// tolerance as an error.
func checkMatmul(got, a, b []float32, m, n, k int) (maxErr float64, err error) {
	if len(got) != m*n {
		return 0, fmt.Errorf("matmul: %d values, want %d", len(got), m*n)
	}
	want, scale := matmulRef(a, b, m, n, k)
	for i := range want {
		d := math.Abs(float64(got[i]) - float64(want[i]))
		maxErr = math.Max(maxErr, d)
		if tol := float64(k)*float32Eps*scale[i] + 1e-6; !(d <= tol) {
			return maxErr, fmt.Errorf("matmul: C[%d][%d] = %g, want %g (error %.3g > tolerance %.3g)", i/n, i%n, got[i], want[i], d, tol)
		}
	}
	return maxErr, nil
}

// checkSoftmax reports whether got is the row softmax of x within 1e-6
// absolute plus 1e-4 relative (GPUs may use a fast exp). It returns the
// largest error and the first element out of tolerance as an error.
func checkSoftmax(got, x []float32, rows, cols int) (maxErr float64, err error) {
	if len(got) != rows*cols {
		return 0, fmt.Errorf("softmax: %d values, want %d", len(got), rows*cols)
	}
	want := softmaxRef(x, rows, cols)
	for i := range want {
		d := math.Abs(float64(got[i]) - float64(want[i]))
		maxErr = math.Max(maxErr, d)
		if tol := 1e-6 + 1e-4*math.Abs(float64(want[i])); !(d <= tol) {
			return maxErr, fmt.Errorf("softmax: S[%d][%d] = %g, want %g (error %.3g > tolerance %.3g)", i/cols, i%cols, got[i], want[i], d, tol)
		}
	}
	return maxErr, nil
}

// checkSum reports whether got is the sum of x within float32 rounding of a
// tree or blocked sum: 1e-5·Σ|x| plus 1e-6. It returns the error.
func checkSum(got float32, x []float32) (absErr float64, err error) {
	want, abs := sumRef(x)
	d := math.Abs(float64(got) - want)
	if tol := 1e-5*abs + 1e-6; !(d <= tol) {
		return d, fmt.Errorf("sum: got %.9g, want %.9g (error %.3g > tolerance %.3g)", got, want, d, tol)
	}
	return d, nil
}
