// The attention scores with the causal mask: s[h][i][j] = q_i·k_j/√dh of
// head h for j ≤ i, and MASKED for j > i (the softmax makes it 0). q and
// k are head h's slices of the rows of qkv (seq × 3·width: q, k, v side by
// side). One invocation per score, a W×W workgroup over (j, i), z the head.

override W: u32 = 8; // the workgroup is W×W

const MASKED: f32 = -1e30;

@group(0) @binding(0) var<uniform> dims: vec4<u32>; // seq, width, heads
@group(0) @binding(1) var<storage, read> qkv: array<f32>;
@group(0) @binding(2) var<storage, read_write> s: array<f32>; // heads × seq × seq

@compute @workgroup_size(W, W)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
	let t = dims.x;
	let d = dims.y;
	let dh = d / dims.z;
	let j = gid.x;
	let i = gid.y;
	let h = gid.z;
	if (i >= t || j >= t) {
		return;
	}
	let at = (h * t + i) * t + j;
	if (j > i) {
		s[at] = MASKED;
		return;
	}
	let q = i * 3u * d + h * dh;
	let k = j * 3u * d + d + h * dh;
	var acc: f32 = 0.0;
	for (var e: u32 = 0u; e < dh; e = e + 1u) {
		acc = acc + qkv[q + e] * qkv[k + e];
	}
	s[at] = acc * inverseSqrt(f32(dh));
}
