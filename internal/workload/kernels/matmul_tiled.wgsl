// out = a·w + bias (a m×k, w k×n, bias n): a T×T workgroup computes a T×T
// block of out, staging T×T tiles of a and w in workgroup memory.

override T: u32 = 8; // the tile, and the workgroup, is T×T

@group(0) @binding(0) var<uniform> dims: vec4<u32>; // m, n, k
@group(0) @binding(1) var<storage, read> a: array<f32>;
@group(0) @binding(2) var<storage, read> w: array<f32>;
@group(0) @binding(3) var<storage, read> bias: array<f32>;
@group(0) @binding(4) var<storage, read_write> out: array<f32>;

var<workgroup> ta: array<f32, T * T>;
var<workgroup> tw: array<f32, T * T>;

@compute @workgroup_size(T, T)
fn main(@builtin(local_invocation_id) lid: vec3<u32>, @builtin(workgroup_id) wid: vec3<u32>) {
	let m = dims.x;
	let n = dims.y;
	let k = dims.z;
	let row = wid.y * T + lid.y;
	let col = wid.x * T + lid.x;
	let at = lid.y * T + lid.x;
	var acc: f32 = 0.0;
	let tiles = (k + T - 1u) / T;
	for (var t: u32 = 0u; t < tiles; t = t + 1u) {
		let ak = t * T + lid.x;
		if (row < m && ak < k) {
			ta[at] = a[row * k + ak];
		} else {
			ta[at] = 0.0;
		}
		let wk = t * T + lid.y;
		if (wk < k && col < n) {
			tw[at] = w[wk * n + col];
		} else {
			tw[at] = 0.0;
		}
		workgroupBarrier();
		for (var p: u32 = 0u; p < T; p = p + 1u) {
			acc = acc + ta[lid.y * T + p] * tw[p * T + lid.x];
		}
		workgroupBarrier();
	}
	if (row < m && col < n) {
		out[row * n + col] = acc + bias[col];
	}
}
