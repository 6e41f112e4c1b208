// x = the embedding of each token plus that of its position: one
// invocation per element of x (seq × width), W to a workgroup. A
// dispatch's rows of workgroups are laid end to end, so a large x takes a
// 2-D dispatch.

override W: u32 = 64; // invocations per workgroup

@group(0) @binding(0) var<uniform> dims: vec4<u32>; // seq, width
@group(0) @binding(1) var<storage, read> tokens: array<u32>;
@group(0) @binding(2) var<storage, read> wte: array<f32>; // vocab × width
@group(0) @binding(3) var<storage, read> wpe: array<f32>; // seq × width
@group(0) @binding(4) var<storage, read_write> x: array<f32>;

@compute @workgroup_size(W)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
	let d = dims.y;
	let i = gid.y * nwg.x * W + gid.x;
	if (i >= dims.x * d) {
		return;
	}
	x[i] = wte[tokens[i / d] * d + i % d] + wpe[i];
}
