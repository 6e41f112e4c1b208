// Greedy selection: next[0] = the index of the largest of the n logits of
// row `row` (the first on a tie, as the CPU reference picks; a NaN is
// never picked, and a row of NaNs gives 0xffffffff). One workgroup of W
// invocations: each scans a stride of the row, then a tree reduction in
// workgroup memory. The host reads back 4 bytes per token.

override W: u32 = 64; // invocations in the one workgroup: a power of two

@group(0) @binding(0) var<uniform> dims: vec4<u32>; // n, row
@group(0) @binding(1) var<storage, read> logits: array<f32>;
@group(0) @binding(2) var<storage, read_write> next: array<u32>;

var<workgroup> bestV: array<f32, W>;
var<workgroup> bestI: array<u32, W>;

@compute @workgroup_size(W)
fn main(@builtin(local_invocation_id) lid: vec3<u32>) {
	let n = dims.x;
	let base = dims.y * n;
	let t = lid.x;
	var bv: f32 = -3.4e38;
	var bi: u32 = 0xffffffffu;
	for (var j: u32 = t; j < n; j = j + W) {
		let v = logits[base + j];
		if (v > bv || (bi == 0xffffffffu && v == bv)) {
			bv = v;
			bi = j;
		}
	}
	bestV[t] = bv;
	bestI[t] = bi;
	workgroupBarrier();
	for (var s: u32 = W / 2u; s > 0u; s = s / 2u) {
		if (t < s) {
			let ov = bestV[t + s];
			let oi = bestI[t + s];
			if (oi != 0xffffffffu && (bestI[t] == 0xffffffffu || ov > bestV[t] || (ov == bestV[t] && oi < bestI[t]))) {
				bestV[t] = ov;
				bestI[t] = oi;
			}
		}
		workgroupBarrier();
	}
	if (t == 0u) {
		next[0] = bestI[0];
	}
}
