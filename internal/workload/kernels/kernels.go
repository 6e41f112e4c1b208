// Package kernels holds the WGSL kernels of the module's workloads, one
// file each, in one copy: the decoder's GPT-2 step and generation
// (internal/workload/decoder) and the command's warm-up step (cmd/streamgate, which
// runs the matmul with a zero bias). Workgroup sizes and tiles are override
// constants, set per variant with gpu.Kernel.WithConstants; sizes come from
// a uniform vec4<u32> at binding 0, so one pipeline serves every shape.
// "streamgate wgsl check internal/workload/kernels/*.wgsl" prints their
// entry points and bindings.
package kernels

import _ "embed"

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
	MatmulTiled string // out = a·w + bias; override T: T×T tiles in workgroup memory
	//go:embed matmul_vec4.wgsl
	MatmulVec4 string // out = a·w + bias, n a multiple of 4; override T: an invocation per 4 elements, vec4 loads
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
