//go:build cgo || (js && wasm)

package wgpu_test

import (
	"context"
	"fmt"
	"log"
	"math"

	"github.com/streamgate/streamgate/gpu"
	"github.com/streamgate/streamgate/wgpu"
)

// sobelWGSL is a Sobel filter: the squared gradient magnitude of an
// r32float image, read with textureLoad (edges clamped) and written to an
// r32float storage texture.
const sobelWGSL = `
@group(0) @binding(0) var src: texture_2d<f32>;
@group(0) @binding(1) var dst: texture_storage_2d<r32float, write>;

fn at(p: vec2<i32>, size: vec2<i32>) -> f32 {
	return textureLoad(src, clamp(p, vec2<i32>(0), size - vec2<i32>(1)), 0).r;
}

@compute @workgroup_size(8, 8)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
	let size = vec2<i32>(textureDimensions(src));
	let p = vec2<i32>(id.xy);
	if (p.x >= size.x || p.y >= size.y) { return; }
	let gx = at(p + vec2<i32>(1, -1), size) + 2.0 * at(p + vec2<i32>(1, 0), size) + at(p + vec2<i32>(1, 1), size)
	       - at(p + vec2<i32>(-1, -1), size) - 2.0 * at(p + vec2<i32>(-1, 0), size) - at(p + vec2<i32>(-1, 1), size);
	let gy = at(p + vec2<i32>(-1, 1), size) + 2.0 * at(p + vec2<i32>(0, 1), size) + at(p + vec2<i32>(1, 1), size)
	       - at(p + vec2<i32>(-1, -1), size) - 2.0 * at(p + vec2<i32>(0, -1), size) - at(p + vec2<i32>(1, -1), size);
	textureStore(dst, p, vec4<f32>(gx * gx + gy * gy, 0.0, 0.0, 1.0));
}`

// sobelCPU is the same filter on the CPU.
func sobelCPU(img []float32, w, h int) []float32 {
	at := func(x, y int) float32 {
		x, y = min(max(x, 0), w-1), min(max(y, 0), h-1)
		return img[y*w+x]
	}
	out := make([]float32, w*h)
	for y := range h {
		for x := range w {
			gx := at(x+1, y-1) + 2*at(x+1, y) + at(x+1, y+1) - at(x-1, y-1) - 2*at(x-1, y) - at(x-1, y+1)
			gy := at(x-1, y+1) + 2*at(x, y+1) + at(x+1, y+1) - at(x-1, y-1) - 2*at(x, y-1) - at(x+1, y-1)
			out[y*w+x] = gx*gx + gy*gy
		}
	}
	return out
}

// Example_sobel runs a Sobel filter on a generated image, reading a
// sampled texture and writing a storage texture, and checks every pixel
// against the same filter on the CPU. The image's values are multiples of
// 1/64, so every sum and product is exact in float32 on both sides: the
// GPU's image equals the CPU's bit for bit.
func Example_sobel() {
	d, err := wgpu.Open(wgpu.Options{})
	if err != nil {
		log.Fatal(err)
	}
	defer d.Close()
	const w, h = 37, 21 // rows of 148 bytes: not a multiple of 256
	img := make([]float32, w*h)
	for y := range h {
		for x := range w {
			img[y*w+x] = float32((x*x+3*y)%64) / 64 // a pattern with edges
		}
	}
	src, err := d.NewTexture(wgpu.TextureDesc{Width: w, Height: h, Format: wgpu.FormatR32Float,
		Usage: wgpu.TextureUsageTextureBinding | wgpu.TextureUsageCopyDst})
	if err != nil {
		log.Fatal(err)
	}
	dst, err := d.NewTexture(wgpu.TextureDesc{Width: w, Height: h, Format: wgpu.FormatR32Float,
		Usage: wgpu.TextureUsageStorageBinding | wgpu.TextureUsageCopySrc})
	if err != nil {
		log.Fatal(err)
	}
	if err := wgpu.WriteTexture(src, [3]uint32{}, [3]uint32{w, h, 1}, img); err != nil {
		log.Fatal(err)
	}
	in, err := src.View(wgpu.ViewDimension2D)
	if err != nil {
		log.Fatal(err)
	}
	out, err := dst.View(wgpu.ViewDimension2D)
	if err != nil {
		log.Fatal(err)
	}
	k := gpu.NewKernel("sobel", sobelWGSL, "main")
	if err := d.Launch(1, k, [3]uint32{(w + 7) / 8, (h + 7) / 8, 1}, in, out); err != nil {
		log.Fatal(err)
	}
	got, err := wgpu.ReadTexture[float32](context.Background(), dst, [3]uint32{}, [3]uint32{w, h, 1})
	if err != nil {
		log.Fatal(err)
	}
	want := sobelCPU(img, w, h)
	differ, peak := 0, float32(0)
	for i := range want {
		if math.Float32bits(got[i]) != math.Float32bits(want[i]) {
			differ++
		}
		peak = max(peak, want[i])
	}
	fmt.Printf("%dx%d image, %d pixels differ from the CPU's, strongest edge %.4f\n", w, h, differ, peak)
	// Output: 37x21 image, 0 pixels differ from the CPU's, strongest edge 15.5352
}
