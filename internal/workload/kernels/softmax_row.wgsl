// y = softmax of each row of x: one invocation per row, W rows per
// workgroup. The sizes come from the uniform dims.

override W: u32 = 64; // invocations per workgroup

@group(0) @binding(0) var<uniform> dims: vec4<u32>; // rows, cols
@group(0) @binding(1) var<storage, read> x: array<f32>;
@group(0) @binding(2) var<storage, read_write> y: array<f32>;

@compute @workgroup_size(W)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
	let rows = dims.x;
	let cols = dims.y;
	let r = gid.x;
	if (r >= rows) {
		return;
	}
	let base = r * cols;
	var mx: f32 = x[base];
	for (var j: u32 = 1u; j < cols; j = j + 1u) {
		mx = max(mx, x[base + j]);
	}
	var sum: f32 = 0.0;
	for (var j: u32 = 0u; j < cols; j = j + 1u) {
		let e = exp(x[base + j] - mx);
		y[base + j] = e;
		sum = sum + e;
	}
	let inv = 1.0 / sum;
	for (var j: u32 = 0u; j < cols; j = j + 1u) {
		y[base + j] = y[base + j] * inv;
	}
}
