package main

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestPow2(t *testing.T) {
	for _, tc := range []struct{ in, want int }{{-3, 1}, {0, 1}, {1, 1}, {2, 2}, {3, 4}, {255, 256}, {256, 256}, {257, 512}} {
		assert.Equal(t, tc.want, pow2(tc.in), "pow2(%d)", tc.in)
	}
}

func TestClass(t *testing.T) {
	assert.Equal(t, "64x64x32", shape{}.class(40, 36, 20))
	assert.Equal(t, "2048", shape{}.class(40*36))
}

func TestCeilDiv(t *testing.T) {
	assert.Equal(t, uint32(1), ceilDiv(1, 8))
	assert.Equal(t, uint32(1), ceilDiv(8, 8))
	assert.Equal(t, uint32(2), ceilDiv(9, 8))
}
