// constants: n=1.5
override n: u32 = 4u;
@compute @workgroup_size(n) fn main() {}
