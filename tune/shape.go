package tune

import (
	"fmt"
	"math/bits"
	"slices"
	"strconv"
	"strings"
)

// A ShapeClass maps a dimension to the representative of its class: every
// dimension of one class shares a key, so one tune serves them all.
// [PowerOfTwo] and [Buckets] make the usual ones.
type ShapeClass func(n int) int

// PowerOfTwo is the class of n rounded up to a power of two: 1, 2, 4, …;
// 0 and below are 0.
func PowerOfTwo(n int) int {
	if n <= 0 {
		return 0
	}
	if n == 1 {
		return 1
	}
	return 1 << bits.Len(uint(n-1))
}

// Buckets returns the class of n rounded up to the first of bounds at
// least n; above the last bound, n rounded up to a power of two. The
// bounds need not be sorted. It panics if a bound is not positive.
func Buckets(bounds ...int) ShapeClass {
	b := slices.Clone(bounds)
	slices.Sort(b)
	if len(b) > 0 && b[0] <= 0 {
		panic(fmt.Sprintf("tune: bucket bound %d is not positive", b[0]))
	}
	return func(n int) int {
		if i, _ := slices.BinarySearch(b, n); i < len(b) {
			return b[i]
		}
		return PowerOfTwo(n)
	}
}

// ShapeKey returns the key of op on a shape: op, a slash, then each
// dimension's class joined by "x" — "matmul/128x512x64". A nil class keeps
// dimensions exact.
func ShapeKey(op string, class ShapeClass, dims ...int) string {
	var b strings.Builder
	b.WriteString(op)
	for i, d := range dims {
		if i == 0 {
			b.WriteByte('/')
		} else {
			b.WriteByte('x')
		}
		if class != nil {
			d = class(d)
		}
		b.WriteString(strconv.Itoa(d))
	}
	return b.String()
}
