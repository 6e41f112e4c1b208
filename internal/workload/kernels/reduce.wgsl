// out[0] = the sum of x, in two passes. Pass "partials": G workgroups of W
// invocations each sum a grid-strided share of x into partial[group]. Pass
// "total": one workgroup sums the G partials into out[0]. The length comes
// from the uniform dims.

override W: u32 = 64; // invocations per workgroup: a power of two
override G: u32 = 64; // workgroups of the partials pass: partial's length at least

@group(0) @binding(0) var<uniform> dims: vec4<u32>; // len
@group(0) @binding(1) var<storage, read> x: array<f32>;
@group(0) @binding(2) var<storage, read_write> partial: array<f32>;
@group(0) @binding(3) var<storage, read_write> out: array<f32>;

var<workgroup> red: array<f32, W>;

fn reduceGroup(t: u32) {
	workgroupBarrier();
	for (var s: u32 = W / 2u; s > 0u; s = s / 2u) {
		if (t < s) {
			red[t] = red[t] + red[t + s];
		}
		workgroupBarrier();
	}
}

@compute @workgroup_size(W)
fn partials(@builtin(local_invocation_id) lid: vec3<u32>, @builtin(workgroup_id) wid: vec3<u32>) {
	let n = dims.x;
	let t = lid.x;
	var sum: f32 = 0.0;
	for (var i: u32 = wid.x * W + t; i < n; i = i + G * W) {
		sum = sum + x[i];
	}
	red[t] = sum;
	reduceGroup(t);
	if (t == 0u) {
		partial[wid.x] = red[0];
	}
}

@compute @workgroup_size(W)
fn total(@builtin(local_invocation_id) lid: vec3<u32>) {
	let t = lid.x;
	var sum: f32 = 0.0;
	for (var i: u32 = t; i < G; i = i + W) {
		sum = sum + partial[i];
	}
	red[t] = sum;
	reduceGroup(t);
	if (t == 0u) {
		out[0] = red[0];
	}
}
