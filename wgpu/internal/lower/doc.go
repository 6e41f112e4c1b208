// Package lower holds the lowering's passes that rewrite a module as a
// syntax tree (package wgsl's [wgsl.ParseFile] and [wgsl.Fprint]) rather
// than as text. It is pure Go and needs no device: each pass is tested on
// golden files under testdata/, as go/printer's tests are (go test
// ./wgpu/internal/lower -update rewrites the expected outputs).
package lower
