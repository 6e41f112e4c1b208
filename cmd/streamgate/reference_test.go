package main

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestMatmulRef(t *testing.T) {
	// [1 2; 3 4]·[5 6; 7 -8] = [19 -10; 43 -14]
	c, scale := matmulRef([]float32{1, 2, 3, 4}, []float32{5, 6, 7, -8}, 2, 2, 2)
	assert.Equal(t, []float32{19, -10, 43, -14}, c)
	assert.Equal(t, []float64{19, 22, 43, 50}, scale)
	// 2×3 · 3×1
	c, _ = matmulRef([]float32{1, 2, 3, 4, 5, 6}, []float32{1, 0, -1}, 2, 1, 3)
	assert.Equal(t, []float32{-2, -2}, c)
}

func TestSoftmaxRef(t *testing.T) {
	for _, tc := range []struct {
		name       string
		x          []float32
		rows, cols int
		want       []float64
	}{
		{"uniform", []float32{0, 0}, 1, 2, []float64{0.5, 0.5}},
		{"1 2 3", []float32{1, 2, 3}, 1, 3, []float64{0.09003057, 0.24472847, 0.66524096}},
		{"large values do not overflow", []float32{1000, 1000, -1000, 1e30}, 2, 2, []float64{0.5, 0.5, 0, 1}},
		{"two rows", []float32{0, math.Ln2, 5, 5}, 2, 2, []float64{1.0 / 3, 2.0 / 3, 0.5, 0.5}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := softmaxRef(tc.x, tc.rows, tc.cols)
			require.Len(t, got, len(tc.want))
			for i := range got {
				assert.InDelta(t, tc.want[i], got[i], 1e-7, "softmaxRef(%v)[%d]", tc.x, i)
			}
		})
	}
}

func TestSumRef(t *testing.T) {
	sum, abs := sumRef([]float32{1, -2, 3.5})
	assert.Equal(t, 2.5, sum)
	assert.Equal(t, 6.5, abs)
}

func TestRandomMatrix(t *testing.T) {
	a := randomMatrix(7, 5, 3)
	assert.Len(t, a, 35)
	assert.Equal(t, a, randomMatrix(7, 5, 3), "reproducible from the seed")
	assert.NotEqual(t, a, randomMatrix(7, 5, 4))
	for _, v := range a {
		assert.True(t, v >= -1 && v < 1, "%v out of [-1, 1)", v)
	}
}

func TestCheckMatmul(t *testing.T) {
	const m, n, k = 5, 4, 64
	a, b := randomMatrix(m, k, 1), randomMatrix(k, n, 2)
	want, _ := matmulRef(a, b, m, n, k)
	// A float32 kernel's answer: accumulated in float32.
	f32 := make([]float32, m*n)
	for i := range m {
		for j := range n {
			var acc float32
			for p := range k {
				acc += a[i*k+p] * b[p*n+j]
			}
			f32[i*n+j] = acc
		}
	}
	_, err := checkMatmul(f32, a, b, m, n, k)
	assert.NoError(t, err, "float32 rounding is within tolerance")

	bad := append([]float32(nil), want...)
	bad[6] += 0.01
	_, err = checkMatmul(bad, a, b, m, n, k)
	assert.ErrorContains(t, err, "C[1][2]")
	bad[6] = float32(math.NaN())
	_, err = checkMatmul(bad, a, b, m, n, k)
	assert.Error(t, err, "NaN fails")
	_, err = checkMatmul(want[1:], a, b, m, n, k)
	assert.ErrorContains(t, err, "values, want")
}

func TestCheckSoftmax(t *testing.T) {
	x := randomMatrix(3, 8, 5)
	want := softmaxRef(x, 3, 8)
	maxErr, err := checkSoftmax(want, x, 3, 8)
	assert.NoError(t, err)
	assert.Zero(t, maxErr)
	bad := append([]float32(nil), want...)
	bad[9] *= 1.001
	_, err = checkSoftmax(bad, x, 3, 8)
	assert.ErrorContains(t, err, "S[1][1]")
	bad[9] = float32(math.NaN())
	_, err = checkSoftmax(bad, x, 3, 8)
	assert.Error(t, err)
}

func TestCheckSum(t *testing.T) {
	x := []float32{1, 2, 3, 4}
	_, err := checkSum(10, x)
	assert.NoError(t, err)
	_, err = checkSum(10.00001, x)
	assert.NoError(t, err, "within float32 rounding")
	_, err = checkSum(9, x)
	assert.ErrorContains(t, err, "sum: got 9, want 10")
	_, err = checkSum(float32(math.NaN()), x)
	assert.Error(t, err)
}
