// y = softmax of each row of x: one workgroup of W invocations per row; the
// row's max and sum are tree reductions in workgroup memory. The sizes come
// from the uniform dims.

override W: u32 = 64; // invocations per workgroup: a power of two

@group(0) @binding(0) var<uniform> dims: vec4<u32>; // rows, cols
@group(0) @binding(1) var<storage, read> x: array<f32>;
@group(0) @binding(2) var<storage, read_write> y: array<f32>;

var<workgroup> red: array<f32, W>;

@compute @workgroup_size(W)
fn main(@builtin(local_invocation_id) lid: vec3<u32>, @builtin(workgroup_id) wid: vec3<u32>) {
	let cols = dims.y;
	let base = wid.x * cols;
	let t = lid.x;
	var mx: f32 = -3.4e38;
	for (var j: u32 = t; j < cols; j = j + W) {
		mx = max(mx, x[base + j]);
	}
	red[t] = mx;
	workgroupBarrier();
	for (var s: u32 = W / 2u; s > 0u; s = s / 2u) {
		if (t < s) {
			red[t] = max(red[t], red[t + s]);
		}
		workgroupBarrier();
	}
	let rowMax = red[0];
	workgroupBarrier();
	var sum: f32 = 0.0;
	for (var j: u32 = t; j < cols; j = j + W) {
		let e = exp(x[base + j] - rowMax);
		y[base + j] = e;
		sum = sum + e;
	}
	red[t] = sum;
	workgroupBarrier();
	for (var s: u32 = W / 2u; s > 0u; s = s / 2u) {
		if (t < s) {
			red[t] = red[t] + red[t + s];
		}
		workgroupBarrier();
	}
	let inv = 1.0 / red[0];
	for (var j: u32 = t; j < cols; j = j + W) {
		y[base + j] = y[base + j] * inv;
	}
}
