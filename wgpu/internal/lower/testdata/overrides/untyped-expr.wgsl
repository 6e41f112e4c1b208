// constants: base=10 derived=3
override base = 2u;
override derived = base * 2u;   // an expression: the value keeps its type through select
@compute @workgroup_size(1) fn main() { _ = derived; }
