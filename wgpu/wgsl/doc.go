// Package wgsl is a front-end for WGSL, the WebGPU Shading Language
// (https://www.w3.org/TR/WGSL/). It is pure Go and needs no GPU.
//
// It is stages, each a file and testable alone, as go/scanner, go/parser,
// go/ast and go/types are:
//
//   - the lexer (token.go, number.go) tokenizes a whole module as the
//     specification does (nested block comments, every literal form,
//     template-list disambiguation), enforcing the nesting, expression and
//     token limits as it goes;
//   - [ParseFile] (tree.go) reads the tokens into a syntax tree with
//     positions ([File], ast.go): every declaration, function body,
//     statement, expression and attribute. [Fprint] (print.go) writes a
//     tree back as WGSL and [Inspect] (walk.go) walks one;
//   - [Analyze] (analyze.go and the files it names) checks the tree's
//     meaning by walks of the tree, each keeping what it finds in tables of
//     its own, keyed by node, never in the nodes: the declarations and
//     their names (analyze.go), the names function bodies use with WGSL's
//     lexical scopes (resolve.go), the dependencies between declarations
//     (deps.go), integer const-evaluation (consteval.go), type layout by
//     the specification's Memory Layout rules (layout.go), the texture
//     and sampler types (handle.go, in the vocabulary of texture.go), the
//     memory limits (memory.go), the bindings each entry point uses
//     (interface.go) and the overrides (override.go).
//
// [Parse] is the three in a row, lexing and parsing the source once. The
// result is a [Module]: the bindings, buffers with their minimum buffer
// sizes, textures and samplers with what they declare; the entry points with their workgroup sizes and the bindings each
// statically uses; the overrides; and the tree itself, for a caller that
// rewrites it (the lowering of package wgpu does).
//
// Function bodies are parsed and resolved, not type-checked. The shader
// compiler (naga, inside wgpu-native) still validates the module; this
// package exists so that a caller can check resources against bindings
// before the driver runs, and so that sources the driver would die on
// never reach it. Parse therefore checks hard [Limits] before anything
// else: the source size, that the source is not empty, the nesting depth
// of brackets and prefix operators, the length of one expression and of an
// else-if chain, the tokens of a function body and of the module, and the
// depth of the dependencies between declarations. Each limit keeps inputs
// well below the shapes that were measured to overflow naga's stack or
// take it seconds (see [DefaultLimits]).
//
// Parse never panics and runs in time linear in the size of its input. Every
// error it returns is an [*Error] carrying a line and column.
package wgsl
