// The decode step's embedding: x = the embedding of the state's token plus
// that of the state's position, one row of width elements. The state is
// written by the host before each step, so the step's bindings and
// workgroups are the same for every token. One invocation per element, W
// to a workgroup.

override W: u32 = 64; // invocations per workgroup

@group(0) @binding(0) var<uniform> dims: vec4<u32>; // width
@group(0) @binding(1) var<storage, read> state: array<u32>; // position, token
@group(0) @binding(2) var<storage, read> wte: array<f32>; // vocab × width
@group(0) @binding(3) var<storage, read> wpe: array<f32>; // max seq × width
@group(0) @binding(4) var<storage, read_write> x: array<f32>;

@compute @workgroup_size(W)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
	let d = dims.x;
	let c = gid.x;
	if (c >= d) {
		return;
	}
	x[c] = wte[state[1] * d + c] + wpe[state[0] * d + c];
}
