@group(0) @binding(0) 
var<storage, read_write> out: array<u32>;

@compute @workgroup_size(64, 1, 1) 
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    out[id.x] = (pack4xU8Clamp(vec4<u32>(id.x)) + dot4I8Packed(id.x, 3u));
    return;
}
