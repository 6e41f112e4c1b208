struct S {
    v: array<u32, 4>,
    w: u32,
}

@group(0) @binding(0) 
var<storage, read_write> out: array<u32>;

fn pick(v: array<u32, 4>, i: u32) -> u32 {
    return v[i];
}

fn member(s: S, i: u32) -> u32 {
    return s.v[i];
}

fn fixed(v: array<u32, 4>, s: S) -> u32 {
    return v[3] + s.v[0];
}

@compute @workgroup_size(64, 1, 1) 
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    let s = S(array<u32, 4>(1u, 2u, 3u, 4u), 5u);
    out[id.x] = (pick(s.v, (id.x % 4u)) + member(s, (id.x % 4u))) + fixed(s.v, s);
    return;
}
