// constants: n=2 m=3
override n: u32 = 4u;
@compute @workgroup_size(n) fn main() {}
