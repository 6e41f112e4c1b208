// Package decoder is a GPT-2-style transformer decoder for the command's
// warmup workload and the ModelStep benchmarks: its kernels (WGSL files
// with override constants), deterministic random weights, the forward
// step as a list of launches on a wgpu device — three of its ops tunable,
// each with real alternatives — and a CPU reference in float64.
//
// One step is the forward pass over a sequence of Seq tokens: token and
// position embedding; per layer a layer norm, the QKV projection, causal
// multi-head attention (scores with the causal mask, a row softmax, the
// weighted sum of the values), the output projection and a residual add,
// a layer norm, the MLP (up-projection, GELU, down-projection) and a
// residual add; a final layer norm and the logits (Seq × Vocab). That is
// 12 launches a layer and 3 more.
package decoder
