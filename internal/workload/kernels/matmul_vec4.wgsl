// A deliberate variant of matmul_naive.wgsl: the same kernel with w, bias
// and out bound as vec4s, so that each invocation computes 4 adjacent
// elements of a row. The bindings' types differ, so it is a file of its
// own rather than a rewrite of the naive one's text.
//
// out = a·w + bias (a m×k, w k×n, bias n, n a multiple of 4): one
// invocation per 4 adjacent elements of a row of out, in a T×T workgroup,
// reading w, bias and out as vec4s.

override T: u32 = 8; // the workgroup is T×T

@group(0) @binding(0) var<uniform> dims: vec4<u32>; // m, n, k
@group(0) @binding(1) var<storage, read> a: array<f32>;
@group(0) @binding(2) var<storage, read> w: array<vec4<f32>>;
@group(0) @binding(3) var<storage, read> bias: array<vec4<f32>>;
@group(0) @binding(4) var<storage, read_write> out: array<vec4<f32>>;

@compute @workgroup_size(T, T)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
	let m = dims.x;
	let n = dims.y / 4u; // in vec4s
	let k = dims.z;
	let row = gid.y;
	let col = gid.x;
	if (row >= m || col >= n) {
		return;
	}
	var acc = bias[col];
	for (var p: u32 = 0u; p < k; p = p + 1u) {
		acc = acc + a[row * k + p] * w[p * n + col];
	}
	out[row * n + col] = acc;
}
