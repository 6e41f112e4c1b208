//go:build cgo || (js && wasm)

package wgpu

// A buffer's range and usage checks, shared by the desktop build and the
// browser's (js).

// checkRange checks that [offset, offset+size) is a 4-aligned range inside
// b. The error names the offset, length and size.
func (b *Buffer) checkRange(op string, offset, size uint64) error {
	switch {
	case offset%4 != 0 || size%4 != 0:
		return newError(op, ErrorTypeValidation, "offset %d and length %d must be multiples of 4 (buffer size %d)", offset, size, b.size)
	case offset > b.size || size > b.size-offset:
		return newError(op, ErrorTypeValidation, "offset %d + length %d is past the buffer's size %d", offset, size, b.size)
	}
	return nil
}

// needUsage checks that b has usage u for op.
func (b *Buffer) needUsage(op string, u BufferUsage, role string) error {
	if b.usage&u == 0 {
		return newError(op, ErrorTypeValidation, "%s buffer's usage %v lacks %s", role, b.usage, "BufferUsage"+u.String())
	}
	return nil
}
