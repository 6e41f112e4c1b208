const LUT: array<u32, 3> = array<u32, 3>(1u, 2u, 3u);
const KEPT: array<u32, 2> = array<u32, 2>(7u, 8u);

@group(0) @binding(0) 
var<storage, read_write> out: array<u32>;

@compute @workgroup_size(64, 1, 1) 
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    out[id.x] = ((LUT[(id.x % 3u)] + KEPT[1]) + array<u32, 8>(1u, 2u, 4u, 8u, 16u, 32u, 64u, 128u)[(id.x % 8u)]) + array<i32, 2>(-1i, 1i)[(id.x & 1u)];
    out[0] = array<u32, 2>(1u, 2u)[1u];
    return;
}
