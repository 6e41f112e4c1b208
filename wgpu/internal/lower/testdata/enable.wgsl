enable f16;

@group(0) @binding(0) 
var<storage, read_write> out: array<f16>;

@compute @workgroup_size(64, 1, 1) 
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    out[id.x] = 1h;
    return;
}
