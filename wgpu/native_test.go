//go:build cgo

package wgpu

import (
	"reflect"
	"testing"
	"unsafe"

	gowgpu "github.com/rajveermalviya/go-webgpu/wgpu"
)

// TestNativeRefs checks the layouts of the go-webgpu handle structs that
// native.go reads the C handles from.
func TestNativeRefs(t *testing.T) {
	tests := []struct {
		typ   reflect.Type
		index int // field holding the C handle
	}{
		{reflect.TypeOf(gowgpu.Instance{}), 0},
		{reflect.TypeOf(gowgpu.Device{}), 0},
		{reflect.TypeOf(gowgpu.Buffer{}), 1},
		{reflect.TypeOf(gowgpu.Queue{}), 1},
		{reflect.TypeOf(gowgpu.CommandEncoder{}), 1},
		{reflect.TypeOf(gowgpu.ComputePipeline{}), 0},
		{reflect.TypeOf(gowgpu.BindGroup{}), 0},
	}
	for _, tc := range tests {
		t.Run(tc.typ.Name(), func(t *testing.T) {
			if tc.typ.NumField() != tc.index+1 {
				t.Fatalf("%v has %d fields, want %d", tc.typ, tc.typ.NumField(), tc.index+1)
			}
			for i := 0; i <= tc.index; i++ {
				f := tc.typ.Field(i)
				if f.Type.Kind() != reflect.Pointer || f.Offset != uintptr(i)*unsafe.Sizeof(uintptr(0)) {
					t.Errorf("%v field %d = %s %v at %d, want a pointer at %d", tc.typ, i, f.Name, f.Type, f.Offset, uintptr(i)*unsafe.Sizeof(uintptr(0)))
				}
			}
			if name := tc.typ.Field(tc.index).Name; name != "ref" {
				t.Errorf("%v field %d is %q, want ref", tc.typ, tc.index, name)
			}
		})
	}
}
