// y = GELU(x), GPT-2's tanh approximation: one invocation per element, W
// to a workgroup, rows of workgroups laid end to end.

override W: u32 = 64; // invocations per workgroup

const C: f32 = 0.7978845608028654; // √(2/π)

@group(0) @binding(0) var<uniform> dims: vec4<u32>; // len
@group(0) @binding(1) var<storage, read> x: array<f32>;
@group(0) @binding(2) var<storage, read_write> y: array<f32>;

@compute @workgroup_size(W)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
	let i = gid.y * nwg.x * W + gid.x;
	if (i >= dims.x) {
		return;
	}
	let v = x[i];
	// tanh is 1 in float32 past ±10; the clamp keeps a driver's exp-based
	// tanh from overflowing to NaN.
	let u = clamp(C * (v + 0.044715 * v * v * v), -10.0, 10.0);
	y[i] = 0.5 * v * (1.0 + tanh(u));
}
