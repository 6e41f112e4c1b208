// A deliberate variant of attn_values.wgsl, the prefill's: the same weighted
// sum against the KV cache (the query rows at a position from the state
// buffer, the value rows from the cache, fixed shapes), with bindings of its
// own, so that neither kernel pays for the other's case.
//
// The attention's weighted sum against the KV cache: out[i][c] =
// Σ_{j ≤ base+i} p[h][i][j] · v_j[c] for column c of head h = c / dh,
// base = state[0], v_j row j of the value cache (max seq × width). The
// loop's bound comes from the state, the shapes are fixed. One invocation
// per element of out (rows × width), W to a workgroup, rows of workgroups
// laid end to end.

override W: u32 = 64; // invocations per workgroup

@group(0) @binding(0) var<uniform> dims: vec4<u32>; // rows, width, heads, max seq
@group(0) @binding(1) var<storage, read> state: array<u32>; // base
@group(0) @binding(2) var<storage, read> p: array<f32>; // heads × rows × max seq
@group(0) @binding(3) var<storage, read> v: array<f32>;
@group(0) @binding(4) var<storage, read_write> out: array<f32>;

@compute @workgroup_size(W)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
	let rows = dims.x;
	let d = dims.y;
	let dh = d / dims.z;
	let seq = dims.w;
	let at = gid.y * nwg.x * W + gid.x;
	if (at >= rows * d) {
		return;
	}
	let i = at / d;
	let c = at % d;
	let row = ((c / dh) * rows + i) * seq;
	let last = min(state[0] + i, seq - 1u);
	var acc: f32 = 0.0;
	for (var j: u32 = 0u; j <= last; j = j + 1u) {
		acc = acc + p[row + j] * v[j * d + c];
	}
	out[at] = acc;
}
