// Package decoder is a GPT-2-style transformer decoder for the command's
// warmup and generate workloads and the ModelStep and Decode benchmarks: its kernels (WGSL files
// with override constants, in internal/workload/kernels), deterministic random weights, the forward
// step as a list of launches on a wgpu device — three of its ops tunable,
// each with real alternatives — and a CPU reference in float64.
//
// One step is the forward pass over a sequence of Seq tokens: token and
// position embedding; per layer a layer norm, the QKV projection, causal
// multi-head attention (scores with the causal mask, a row softmax, the
// weighted sum of the values), the output projection and a residual add,
// a layer norm, the MLP (up-projection, GELU, down-projection) and a
// residual add; a final layer norm and the logits (Seq × Vocab). The
// step is described once, as a list of stages (layer.go): the GPU steps,
// their CPU references and their launch counts ([Config.Launches]) are
// all made from it.
//
// A [Generator] generates with a KV cache (streamgate generate, the
// Decode benchmarks): a prefill over the prompt and a decode step per
// token whose position and token come from a small state buffer, so that
// its shapes are the same at every position and it is captured once and
// replayed per token; greedy selection is an argmax kernel. Its CPU
// reference, [ReferenceGenerate], runs the same KV-cache algorithm in
// float64, and [CheckGeneration] compares every token and every
// position's logits.
package decoder
