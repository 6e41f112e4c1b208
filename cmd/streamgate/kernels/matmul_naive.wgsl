// C = A·B, one invocation per element of C, in a T×T workgroup. The sizes
// come from the uniform dims, so one pipeline serves every shape.

override T: u32 = 8; // the workgroup is T×T

@group(0) @binding(0) var<uniform> dims: vec4<u32>; // M, N, K
@group(0) @binding(1) var<storage, read> a: array<f32>;
@group(0) @binding(2) var<storage, read> b: array<f32>;
@group(0) @binding(3) var<storage, read_write> c: array<f32>;

@compute @workgroup_size(T, T)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
	let m = dims.x;
	let n = dims.y;
	let k = dims.z;
	let row = gid.y;
	let col = gid.x;
	if (row >= m || col >= n) {
		return;
	}
	var acc: f32 = 0.0;
	for (var p: u32 = 0u; p < k; p = p + 1u) {
		acc = acc + a[row * k + p] * b[p * n + col];
	}
	c[row * n + col] = acc;
}
