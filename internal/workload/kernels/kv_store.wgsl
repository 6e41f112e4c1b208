// The KV cache's store: the keys and values of rows query rows (the second
// and third slices of each row of qkv, rows × 3·width) go to rows base.. of
// the caches k and v (max seq × width), base = state[0]: 0 for a prefill
// (a constant state), the token's position for a decode step. One
// invocation per element of a row's keys, W to a workgroup, rows of
// workgroups laid end to end.

override W: u32 = 64; // invocations per workgroup

@group(0) @binding(0) var<uniform> dims: vec4<u32>; // rows, width, max seq
@group(0) @binding(1) var<storage, read> state: array<u32>; // base
@group(0) @binding(2) var<storage, read> qkv: array<f32>;
@group(0) @binding(3) var<storage, read_write> k: array<f32>;
@group(0) @binding(4) var<storage, read_write> v: array<f32>;

@compute @workgroup_size(W)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
	let d = dims.y;
	let i = gid.y * nwg.x * W + gid.x;
	if (i >= dims.x * d) {
		return;
	}
	let r = i / d;
	let c = i % d;
	let row = state[0] + r;
	if (row >= dims.z) {
		return;
	}
	k[row * d + c] = qkv[r * 3u * d + d + c];
	v[row * d + c] = qkv[r * 3u * d + 2u * d + c];
}
