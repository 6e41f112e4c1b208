// y = the layer norm of each row of x, times gain plus bias: one
// invocation per row, W rows to a workgroup; mean and variance in two
// passes over the row.

override W: u32 = 64; // rows per workgroup

const EPS: f32 = 1e-5;

@group(0) @binding(0) var<uniform> dims: vec4<u32>; // rows, cols
@group(0) @binding(1) var<storage, read> x: array<f32>;
@group(0) @binding(2) var<storage, read> gain: array<f32>;
@group(0) @binding(3) var<storage, read> bias: array<f32>;
@group(0) @binding(4) var<storage, read_write> y: array<f32>;

@compute @workgroup_size(W)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
	let r = gid.x;
	let n = dims.y;
	if (r >= dims.x) {
		return;
	}
	let base = r * n;
	var mean: f32 = 0.0;
	for (var j: u32 = 0u; j < n; j = j + 1u) {
		mean = mean + x[base + j];
	}
	mean = mean / f32(n);
	var v: f32 = 0.0;
	for (var j: u32 = 0u; j < n; j = j + 1u) {
		let e = x[base + j] - mean;
		v = v + e * e;
	}
	let inv = inverseSqrt(v / f32(n) + EPS);
	for (var j: u32 = 0u; j < n; j = j + 1u) {
		y[base + j] = (x[base + j] - mean) * inv * gain[j] + bias[j];
	}
}
