@group(0) @binding(0) 
var<storage, read_write> out: array<u32>;

@compute @workgroup_size(1, 1, 1) 
fn read_() {
    out[0] = 1u;
    return;
}

@compute @workgroup_size(1, 1, 1) 
fn main() {
    out[1] = 2u;
    return;
}
