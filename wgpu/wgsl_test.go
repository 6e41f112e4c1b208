//go:build cgo

package wgpu_test

import (
	"errors"
	"reflect"
	"testing"

	"github.com/streamgate/streamgate/wgpu"
)

func TestParseBindings(t *testing.T) {
	tests := []struct {
		name string
		src  string
		want []wgpu.Binding
		err  wgpu.ErrorType
	}{
		{name: "none", src: `@compute @workgroup_size(1) fn main() {}`, want: []wgpu.Binding{}},
		{name: "add", src: addWGSL, want: []wgpu.Binding{
			{0, "a", wgpu.BindingStorageRead, 4},
			{1, "b", wgpu.BindingStorageRead, 4},
			{2, "c", wgpu.BindingStorageReadWrite, 4},
		}},
		{name: "order-and-spacing", src: `
// @group(0) @binding(7) var<storage> commented: f32;
/* @group(0) @binding(8) var<uniform> also: f32; */
@binding(1)   @group( 0 ) var<uniform> p : vec3<f32>;
@group(0)@binding(0)var<storage,read_write>out:array<vec4f, 8>;
@group(0) @binding(2) var<storage> s: MyStruct;
var<workgroup> tile: array<f32, 64>;`, want: []wgpu.Binding{
			{0, "out", wgpu.BindingStorageReadWrite, 128},
			{1, "p", wgpu.BindingUniform, 12},
			{2, "s", wgpu.BindingStorageRead, 0},
		}},
		{name: "atomic-array", src: `@group(0) @binding(0) var<storage, read_write> c: array<atomic<u32>, 3>;`, want: []wgpu.Binding{
			{0, "c", wgpu.BindingStorageReadWrite, 12},
		}},
		{name: "vec3-stride", src: `@group(0) @binding(0) var<storage, read> v: array<vec3<f32>, 2>;`, want: []wgpu.Binding{
			{0, "v", wgpu.BindingStorageRead, 32},
		}},
		{name: "gap", src: `@group(0) @binding(1) var<storage> a: f32;`, err: wgpu.ErrorTypeInvalidArgument},
		{name: "duplicate", src: `@group(0) @binding(0) var<storage> a: f32; @group(0) @binding(0) var<storage> b: f32;`, err: wgpu.ErrorTypeInvalidArgument},
		{name: "group-2", src: `@group(2) @binding(0) var<storage> a: f32;`, err: wgpu.ErrorTypeInvalidArgument},
		{name: "no-binding", src: `@group(0) var<storage> a: f32;`, err: wgpu.ErrorTypeInvalidArgument},
		{name: "sampler", src: `@group(0) @binding(0) var s: sampler;`, err: wgpu.ErrorTypeInvalidArgument},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := wgpu.ParseBindings(tc.src)
			if tc.err != 0 {
				var e *wgpu.Error
				if !errors.As(err, &e) || e.Type != tc.err {
					t.Fatalf("ParseBindings = %v, %v; want error of type %v", got, err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatalf("ParseBindings = %v", err)
			}
			if len(got) == 0 && len(tc.want) == 0 {
				return
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("ParseBindings =\n%+v\nwant\n%+v", got, tc.want)
			}
		})
	}
}
