// Package kernels holds the WGSL kernels of the module's workloads, one
// file each, in one copy: the decoder's GPT-2 step and generation
// (internal/workload/decoder) and the command's warm-up step (cmd/streamgate, which
// runs the matmul with a zero bias). Workgroup sizes and tiles are override
// constants, set per variant with gpu.Kernel.WithConstants; sizes come from
// a uniform vec4<u32> at binding 0, so one pipeline serves every shape.
// "streamgate wgsl check internal/workload/kernels/*.wgsl" prints their
// entry points and bindings.
package kernels

import (
	_ "embed"
	"strings"
)

// The step's kernels.
var (
	//go:embed embed.wgsl
	Embed string // override W
	//go:embed layernorm_row.wgsl
	LayerNormRow string // override W: a thread per row
	//go:embed layernorm_group.wgsl
	LayerNormGroup string // override W: a workgroup per row
	//go:embed matmul_naive.wgsl
	MatmulNaive string // out = a·w + bias; override T: a T×T workgroup, an invocation per element
	//go:embed matmul_tiled.wgsl
	MatmulTiled string                    // out = a·w + bias; override T: T×T tiles in workgroup memory
	MatmulVec4  = vec4Matmul(MatmulNaive) // override T: an invocation per 4 elements, vec4 loads
	//go:embed attn_scores.wgsl
	AttnScores string // override W: a W×W workgroup
	//go:embed softmax_row.wgsl
	SoftmaxRow string // override W: a thread per row
	//go:embed softmax_group.wgsl
	SoftmaxGroup string // override W: a workgroup per row
	//go:embed attn_values.wgsl
	AttnValues string // override W
	//go:embed gelu.wgsl
	GELU string // override W
	//go:embed add.wgsl
	Add string // override W
	//go:embed reduce.wgsl
	Reduce string // overrides W, G: entry points partials and total
)

// The generation's kernels: the KV cache and the decode step read the
// position and token from the state buffer.
var (
	//go:embed embed_at.wgsl
	EmbedAt string // override W
	//go:embed kv_store.wgsl
	KVStore string // override W
	//go:embed attn_scores_kv.wgsl
	AttnScoresKV string // override W: a W×W workgroup
	//go:embed attn_values_kv.wgsl
	AttnValuesKV string // override W
	//go:embed argmax.wgsl
	Argmax string // override W: the one workgroup's size
	//go:embed store_row.wgsl
	StoreRow string // override W
)

// vec4Matmul derives the vec4 matmul from the naive one: the same kernel
// with w, bias and out read as vec4s, so that n counts vec4s and each
// invocation computes 4 adjacent elements of a row (n must be a multiple
// of 4). It panics, at init, if naive no longer has what it replaces.
func vec4Matmul(naive string) string {
	return replaceEach(naive,
		"// out = a·w + bias (a m×k, w k×n, bias n): one invocation per element of\n"+
			"// out, in a T×T workgroup. The sizes come from the uniform dims, so one\n"+
			"// pipeline serves every shape.\n",
		"// out = a·w + bias (a m×k, w k×n, bias n, n a multiple of 4): one\n"+
			"// invocation per 4 adjacent elements of a row of out, in a T×T workgroup,\n"+
			"// reading w, bias and out as vec4s (derived from matmul_naive.wgsl).\n",
		"w: array<f32>", "w: array<vec4<f32>>",
		"bias: array<f32>", "bias: array<vec4<f32>>",
		"out: array<f32>", "out: array<vec4<f32>>",
		"let n = dims.y;", "let n = dims.y / 4u; // in vec4s",
	)
}

// replaceEach replaces each old of the pairs oldnew (old, new, ...) in s,
// each of which must occur exactly once.
func replaceEach(s string, oldnew ...string) string {
	for i := 0; i < len(oldnew); i += 2 {
		if strings.Count(s, oldnew[i]) != 1 {
			panic("kernels: " + oldnew[i] + ": not once in the source")
		}
		s = strings.Replace(s, oldnew[i], oldnew[i+1], 1)
	}
	return s
}
