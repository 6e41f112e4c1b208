@group(0) @binding(0) 
var<storage> a: array<u32>;
@group(0) @binding(1) 
var<storage, read_write> out: array<u32>;

@compute @workgroup_size(64, 1, 1) 
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    let i = id.x;
    let lut = array<u32, 4>(1u, 2u, 4u, a[0]);
    let m = mat2x2<f32>(vec2<f32>(1f, 2f), vec2<f32>(3f, 4.5f));
    let kept = array<u32, 2>(a[1], a[2]);
    let _e17 = a[i];
    out[i] = ((_e17 * lut[(a[i] % 4u)]) + u32(m[(i % 2u)].y)) + kept[1];
    return;
}
