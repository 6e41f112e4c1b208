// The attention's weighted sum: out[i][c] = Σ_{j ≤ i} p[h][i][j] · v_j[c]
// for column c of head h = c / dh, v the third slice of the rows of qkv.
// One invocation per element of out (seq × width), W to a workgroup, rows
// of workgroups laid end to end.

override W: u32 = 64; // invocations per workgroup

@group(0) @binding(0) var<uniform> dims: vec4<u32>; // seq, width, heads
@group(0) @binding(1) var<storage, read> p: array<f32>; // heads × seq × seq
@group(0) @binding(2) var<storage, read> qkv: array<f32>;
@group(0) @binding(3) var<storage, read_write> out: array<f32>;

@compute @workgroup_size(W)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
	let t = dims.x;
	let d = dims.y;
	let dh = d / dims.z;
	let at = gid.y * nwg.x * W + gid.x;
	if (at >= t * d) {
		return;
	}
	let i = at / d;
	let c = at % d;
	let row = ((c / dh) * t + i) * t;
	var acc: f32 = 0.0;
	for (var j: u32 = 0u; j <= i; j = j + 1u) {
		acc = acc + p[row + j] * qkv[j * 3u * d + 2u * d + c];
	}
	out[at] = acc;
}
