package tune_test

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/streamgate/streamgate/tune"
)

// A model whose sequence length changes every step tunes once per class,
// not once per length.
func ExampleShapeKey() {
	for _, seq := range []int{77, 100, 128, 129, 1000} {
		fmt.Println(tune.ShapeKey("attention", tune.PowerOfTwo, seq, 64))
	}
	// A caller's own buckets; past the last, powers of two.
	buckets := tune.Buckets(64, 256, 1024)
	for _, seq := range []int{1, 64, 65, 700, 3000} {
		fmt.Println(tune.ShapeKey("attention", buckets, seq, 64))
	}
	// Output:
	// attention/128x64
	// attention/128x64
	// attention/128x64
	// attention/256x64
	// attention/1024x64
	// attention/64x64
	// attention/64x64
	// attention/256x64
	// attention/1024x64
	// attention/4096x64
}

func TestPowerOfTwo(t *testing.T) {
	for _, tc := range []struct{ n, want int }{{-3, 0}, {0, 0}, {1, 1}, {2, 2}, {3, 4}, {4, 4}, {5, 8}, {1 << 20, 1 << 20}, {1<<20 + 1, 1 << 21}} {
		assert.Equal(t, tc.want, tune.PowerOfTwo(tc.n), "PowerOfTwo(%d)", tc.n)
	}
	assert.Equal(t, "op", tune.ShapeKey("op", nil))
	assert.Equal(t, "op/3x5", tune.ShapeKey("op", nil, 3, 5))
	assert.Panics(t, func() { tune.Buckets(0, 8) })
}
