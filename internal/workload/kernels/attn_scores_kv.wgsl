// A deliberate variant of attn_scores.wgsl, the prefill's: the same scores
// against the KV cache (the query rows at a position from the state
// buffer, the key rows from the cache, fixed shapes), with bindings of its
// own, so that neither kernel pays for the other's case.
//
// The attention scores against the KV cache: s[h][i][j] = q_i·k_j/√dh of
// head h for the query row i at position base + i (base = state[0]) and
// every cache row j ≤ base + i, MASKED for the later rows (the softmax
// makes them 0), so the shape is the same at every position: rows × max
// seq per head. q is head h's slice of row i of qkv (rows × 3·width), k_j
// row j of the key cache (max seq × width). One invocation per score, a
// W×W workgroup over (j, i), z the head.

override W: u32 = 8; // the workgroup is W×W

const MASKED: f32 = -1e30;

@group(0) @binding(0) var<uniform> dims: vec4<u32>; // rows, width, heads, max seq
@group(0) @binding(1) var<storage, read> state: array<u32>; // base
@group(0) @binding(2) var<storage, read> qkv: array<f32>;
@group(0) @binding(3) var<storage, read> k: array<f32>;
@group(0) @binding(4) var<storage, read_write> s: array<f32>; // heads × rows × max seq

@compute @workgroup_size(W, W)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
	let rows = dims.x;
	let d = dims.y;
	let dh = d / dims.z;
	let seq = dims.w;
	let j = gid.x;
	let i = gid.y;
	let h = gid.z;
	if (i >= rows || j >= seq) {
		return;
	}
	let at = (h * rows + i) * seq + j;
	if (j > state[0] + i) {
		s[at] = MASKED;
		return;
	}
	let q = i * 3u * d + h * dh;
	let kr = j * d + h * dh;
	var acc: f32 = 0.0;
	for (var e: u32 = 0u; e < dh; e = e + 1u) {
		acc = acc + qkv[q + e] * k[kr + e];
	}
	s[at] = acc * inverseSqrt(f32(dh));
}
