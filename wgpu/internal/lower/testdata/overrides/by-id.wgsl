// constants: 7=32 neg=-3
@id(7) override tile = 16;
override neg = 1;
override half = 0.5h;
var<workgroup> t: array<f32, tile * 2>;
@compute @workgroup_size(tile) fn main() { t[0] = f32(neg); }
