package decoder

import _ "embed"

// The decoder's kernels, one WGSL file each under kernels/, in today's
// WGSL: workgroup sizes and tiles are override constants, set per variant
// with gpu.Kernel.WithConstants; sizes come from a uniform vec4<u32> at
// binding 0, so one pipeline serves every shape. "streamgate wgsl check
// internal/decoder/kernels/*.wgsl" prints their entry points and bindings.
var (
	//go:embed kernels/embed.wgsl
	embedWGSL string // override W
	//go:embed kernels/layernorm_row.wgsl
	layerNormRowWGSL string // override W: a thread per row
	//go:embed kernels/layernorm_group.wgsl
	layerNormGroupWGSL string // override W: a workgroup per row
	//go:embed kernels/matmul_naive.wgsl
	matmulNaiveWGSL string // override T: a T×T workgroup, an invocation per element
	//go:embed kernels/matmul_tiled.wgsl
	matmulTiledWGSL string // override T: T×T tiles in workgroup memory
	//go:embed kernels/matmul_vec4.wgsl
	matmulVec4WGSL string // override T: an invocation per 4 elements, vec4 loads
	//go:embed kernels/attn_scores.wgsl
	attnScoresWGSL string // override W: a W×W workgroup
	//go:embed kernels/softmax_row.wgsl
	softmaxRowWGSL string // override W: a thread per row
	//go:embed kernels/softmax_group.wgsl
	softmaxGroupWGSL string // override W: a workgroup per row
	//go:embed kernels/attn_values.wgsl
	attnValuesWGSL string // override W
	//go:embed kernels/gelu.wgsl
	geluWGSL string // override W
	//go:embed kernels/add.wgsl
	addWGSL string // override W

	// The generation's kernels (generator.go): the KV cache and the
	// decode step read the position and token from the state buffer.
	//go:embed kernels/embed_at.wgsl
	embedAtWGSL string // override W
	//go:embed kernels/kv_store.wgsl
	kvStoreWGSL string // override W
	//go:embed kernels/attn_scores_kv.wgsl
	attnScoresKVWGSL string // override W: a W×W workgroup
	//go:embed kernels/attn_values_kv.wgsl
	attnValuesKVWGSL string // override W
	//go:embed kernels/argmax.wgsl
	argmaxWGSL string // override W: the one workgroup's size
	//go:embed kernels/store_row.wgsl
	storeRowWGSL string // override W
)
