// The residual add x += y: one invocation per element, W to a workgroup,
// rows of workgroups laid end to end (a 2-D dispatch for a large x).

override W: u32 = 64; // invocations per workgroup

@group(0) @binding(0) var<uniform> dims: vec4<u32>; // len
@group(0) @binding(1) var<storage, read_write> x: array<f32>;
@group(0) @binding(2) var<storage, read> y: array<f32>;

@compute @workgroup_size(W)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
	let i = gid.y * nwg.x * W + gid.x;
	if (i < dims.x) {
		x[i] = x[i] + y[i];
	}
}
