// Package wgsl is a front-end for the module-scope declarations of WGSL, the
// WebGPU Shading Language (https://www.w3.org/TR/WGSL/). It is pure Go and
// needs no GPU.
//
// [Parse] tokenizes a whole module as the specification does (nested block
// comments, every literal form, template-list disambiguation), parses its
// module-scope declarations (directives, const, override, alias, struct,
// var, fn, const_assert), evaluates the integer const-expressions that
// bindings, array counts, @align, @size and @workgroup_size use, and lays
// out every buffer binding's type by the specification's Memory Layout
// rules. The result is a [Module]: the buffer bindings with their minimum
// buffer sizes; the entry points with their workgroup sizes and the
// bindings each statically uses; and the overrides, with the byte spans of
// their parts so that a caller can rewrite them in the source.
//
// Function bodies are read only for the names they use: a pass walks their
// tokens with WGSL's lexical scopes (parameters, and let, var and const to
// the end of their block or for statement), so that a local shadowing a
// module-scope name is not a use of it, and finds what each function calls
// and which module-scope variables it names. Bodies are not parsed into
// statements, type-checked or validated. The shader compiler (naga, inside
// wgpu-native) still validates the module; this package exists so that a
// caller can check buffers against bindings before the driver runs, and so
// that sources the driver would die on never reach it. Parse therefore checks hard [Limits] before anything else: the source
// size, that the source is not empty, the nesting depth of brackets and
// prefix operators, the length of one expression and of an else-if chain,
// and the depth of the dependencies between declarations. Each limit keeps
// inputs well below the shapes that were measured to overflow naga's stack
// (see [DefaultLimits]).
//
// Parse never panics and runs in time linear in the size of its input. Every
// error it returns is an [*Error] carrying a line and column.
package wgsl
