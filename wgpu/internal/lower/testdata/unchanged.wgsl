@group(0) @binding(0) 
var<storage, read_write> out: array<f32>;

fn f(v: array<f32, 2>) -> f32 {
    return (v[0] + v[1u]);
}

@compute @workgroup_size(64, 1, 1) 
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    let x = array<f32, 2>(1f, 2f);
    out[id.x] = f(x) + x[1];
    return;
}
