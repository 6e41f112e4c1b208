// dst[state[0]][i] = src[i]: the decode step's logits (n) kept at its
// position's row of the history (max seq × n), so that the host checks
// every position's logits after the generation, reading 4 bytes per token
// meanwhile. One invocation per element, W to a workgroup.

override W: u32 = 64; // invocations per workgroup

@group(0) @binding(0) var<uniform> dims: vec4<u32>; // n
@group(0) @binding(1) var<storage, read> state: array<u32>; // position
@group(0) @binding(2) var<storage, read> src: array<f32>;
@group(0) @binding(3) var<storage, read_write> dst: array<f32>;

@compute @workgroup_size(W)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
	let n = dims.x;
	let i = gid.x;
	let at = state[0] * n + i;
	if (i >= n || at >= arrayLength(&dst)) {
		return;
	}
	dst[at] = src[i];
}
