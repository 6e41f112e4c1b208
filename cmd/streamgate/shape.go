package main

import (
	"math/bits"
	"strconv"
	"strings"
)

// shape is the warmup workload's problem size: C = A·B with A m×k and B
// k×n.
type shape struct{ M, N, K int }

// class names the shape class of dims for a tune key: each dimension
// rounded up to a power of two, joined by "x". Shapes of one class share a
// tune, so a program whose sizes vary a little tunes once.
func (shape) class(dims ...int) string {
	parts := make([]string, len(dims))
	for i, d := range dims {
		parts[i] = strconv.Itoa(pow2(d))
	}
	return strings.Join(parts, "x")
}

// pow2 rounds v up to a power of two (1 for v ≤ 1).
func pow2(v int) int {
	if v <= 1 {
		return 1
	}
	return 1 << bits.Len(uint(v-1))
}

// ceilDiv returns ⌈a/b⌉ for positive a and b: the workgroups that cover a
// elements b at a time.
func ceilDiv(a, b int) uint32 { return uint32((a + b - 1) / b) }
