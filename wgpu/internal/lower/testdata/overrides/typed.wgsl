// constants: WG=128 scale=2.5 on=1
@id(3) override WG: u32 = 64u;   // by name
override scale: f32 = 1.0;
override on: bool;
override kept: i32 = -4;         // its default
@group(0) @binding(0) var<storage, read_write> out: array<f32>;
@compute @workgroup_size(WG) fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    if on { out[id.x] = scale * f32(kept); }
}
