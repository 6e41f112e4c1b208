// y = the layer norm of each row of x, times gain plus bias: one workgroup
// of W invocations per row; the row's sum and then its squared deviations
// are tree reductions in workgroup memory.

override W: u32 = 64; // invocations per workgroup: a power of two

const EPS: f32 = 1e-5;

@group(0) @binding(0) var<uniform> dims: vec4<u32>; // rows, cols
@group(0) @binding(1) var<storage, read> x: array<f32>;
@group(0) @binding(2) var<storage, read> gain: array<f32>;
@group(0) @binding(3) var<storage, read> bias: array<f32>;
@group(0) @binding(4) var<storage, read_write> y: array<f32>;

var<workgroup> red: array<f32, W>;

// total sums red[0..W) into red[0] and returns it to every invocation.
fn total(t: u32) -> f32 {
	workgroupBarrier();
	for (var s: u32 = W / 2u; s > 0u; s = s / 2u) {
		if (t < s) {
			red[t] = red[t] + red[t + s];
		}
		workgroupBarrier();
	}
	let v = red[0];
	workgroupBarrier();
	return v;
}

@compute @workgroup_size(W)
fn main(@builtin(local_invocation_id) lid: vec3<u32>, @builtin(workgroup_id) wid: vec3<u32>) {
	let n = dims.y;
	let base = wid.x * n;
	let t = lid.x;
	var s: f32 = 0.0;
	for (var j: u32 = t; j < n; j = j + W) {
		s = s + x[base + j];
	}
	red[t] = s;
	let mean = total(t) / f32(n);
	var v: f32 = 0.0;
	for (var j: u32 = t; j < n; j = j + W) {
		let e = x[base + j] - mean;
		v = v + e * e;
	}
	red[t] = v;
	let inv = inverseSqrt(total(t) / f32(n) + EPS);
	for (var j: u32 = t; j < n; j = j + W) {
		y[base + j] = (x[base + j] - mean) * inv * gain[j] + bias[j];
	}
}
