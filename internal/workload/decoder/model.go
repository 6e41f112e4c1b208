//go:build cgo || js

package decoder

import (
	"context"
	"errors"
	"fmt"
	"math"
	"unsafe"

	"github.com/streamgate/streamgate/client"
	"github.com/streamgate/streamgate/gpu"
	"github.com/streamgate/streamgate/internal/workload/kernels"
	"github.com/streamgate/streamgate/internal/workload/scratch"
	"github.com/streamgate/streamgate/tune"
	"github.com/streamgate/streamgate/wgpu"
)

// Variant is one way to run an op: a kernel and its workgroup count for
// the op's shape.
type Variant struct {
	Name       string
	Kernel     *gpu.Kernel
	Workgroups [3]uint32
}

// Op is one kind of launch of the step at one shape: a tunable op has a
// tune key and several variants, a fixed one a single variant. Launches of
// one Op share its uniform of sizes and its shapes. An Op is immutable
// once its Model is made.
type Op struct {
	Name     string    // "matmul", "layernorm", "softmax", "embed", ...
	Key      string    // the tune key; "" for a fixed op
	Variants []Variant // the tune candidates, in order; one for a fixed op
	Tune     tune.Op   // the tune op (Key, a candidate per variant, NewInputs); zero for a fixed op
}

// Tunable reports whether o is tuned.
func (o *Op) Tunable() bool { return o.Key != "" }

// Variant returns o's variant called name, or false.
func (o *Op) Variant(name string) (Variant, bool) {
	for _, v := range o.Variants {
		if v.Name == name {
			return v, true
		}
	}
	return Variant{}, false
}

// BufferSpec is one buffer of the step: its size and usage, its contents
// when it holds weights, tokens or sizes (nil for an activation), and
// whether the step takes it from the device's pool each time.
type BufferSpec struct {
	Name  string
	Size  uint64
	Usage wgpu.BufferUsage
	Data  []byte // little-endian contents, uploaded once; nil for activations
	Temp  bool   // an activation or temporary: pooled per step when the model is
}

// Launch is one launch of the step: its op and its buffers, by index into
// [Model.Buffers], in binding order.
type Launch struct {
	Op   *Op
	Args []int
}

// Model is a decoder on one wgpu device: its buffers, ops and launches.
// Its step's activations and temporaries come from the device's buffer
// pool ([wgpu.Device.TempBuffer]) each step and go back after it, unless
// the model was made with pooled false: then they are made once.
//
// A Model is not safe for concurrent use; [Model.Release] releases it.
type Model struct {
	Config
	W *Weights

	d        *wgpu.Device
	pooled   bool
	specs    []BufferSpec
	bufs     []*wgpu.Buffer // by spec; a pooled temp's is nil between steps
	ops      []*Op          // in first-use order
	launches []Launch
	args     [][]gpu.Buffer // per launch, filled from bufs each step
	kernels  map[string]*gpu.Kernel
	byDims   map[string]*Op // the ops made, by name and sizes
	opDims   map[*Op]int    // each op's sizes uniform
	named    map[string]int // the weights uploaded, by name
	logits   int            // index of the logits buffer
}

// NewModel uploads w (the weights of c) to d and builds the step. It
// returns an error when a buffer or a dispatch exceeds d's limits.
func NewModel(d *wgpu.Device, c Config, w *Weights, pooled bool) (m *Model, err error) {
	if err := c.Validate(); err != nil {
		return nil, err
	}
	m = newBuilder(d, c, w)
	m.pooled = pooled
	defer func() {
		if err != nil {
			m.Release()
			m = nil
		}
	}()
	if err := m.build(); err != nil {
		return nil, err
	}
	if err := m.allocate(); err != nil {
		return nil, err
	}
	m.args = make([][]gpu.Buffer, len(m.launches))
	for i, l := range m.launches {
		m.args[i] = make([]gpu.Buffer, len(l.Args))
	}
	return m, nil
}

// allocate checks the buffers and dispatches against the device's limits,
// makes the buffers (not a pooled model's temporaries) and uploads their
// contents, and makes the tunable ops' tune ops.
func (m *Model) allocate() (err error) {
	lim := m.d.Limits()
	for _, s := range m.specs {
		if s.Usage&wgpu.BufferUsageStorage != 0 && s.Size > lim.MaxStorageBufferBindingSize {
			return fmt.Errorf("decoder: buffer %s of %d bytes exceeds the device's maxStorageBufferBindingSize %d", s.Name, s.Size, lim.MaxStorageBufferBindingSize)
		}
	}
	for _, o := range m.ops {
		for _, v := range o.Variants {
			for _, n := range v.Workgroups {
				if n > lim.MaxComputeWorkgroupsPerDimension {
					return fmt.Errorf("decoder: %s %s dispatches %v workgroups, over the device's maxComputeWorkgroupsPerDimension %d",
						o.Name, v.Name, v.Workgroups, lim.MaxComputeWorkgroupsPerDimension)
				}
			}
		}
	}
	m.bufs = make([]*wgpu.Buffer, len(m.specs))
	for i, s := range m.specs {
		if s.Temp && m.pooled {
			continue
		}
		if m.bufs[i], err = m.d.NewBuffer(s.Size, s.Usage); err != nil {
			return err
		}
		if s.Data != nil {
			if err := wgpu.Write(m.bufs[i], 0, s.Data); err != nil {
				return err
			}
		}
	}
	for _, o := range m.ops {
		if o.Tunable() {
			o.Tune = m.tuneOp(o)
		}
	}
	return nil
}

// Release releases the model's buffers (a pooled step's are back in the
// pool already).
func (m *Model) Release() {
	for i, b := range m.bufs {
		if b != nil {
			b.Release()
			m.bufs[i] = nil
		}
	}
}

// Device returns the model's device.
func (m *Model) Device() *wgpu.Device { return m.d }

// Ops returns the step's ops in first-use order.
func (m *Model) Ops() []*Op { return m.ops }

// Launches returns the step's launches, in order.
func (m *Model) Launches() []Launch { return m.launches }

// Buffers returns the step's buffers; [Launch].Args index it.
func (m *Model) Buffers() []BufferSpec { return m.specs }

// Kernels returns every distinct kernel of every variant.
func (m *Model) Kernels() []*gpu.Kernel {
	var ks []*gpu.Kernel
	seen := map[*gpu.Kernel]bool{}
	for _, o := range m.ops {
		for _, v := range o.Variants {
			if !seen[v.Kernel] {
				seen[v.Kernel] = true
				ks = append(ks, v.Kernel)
			}
		}
	}
	return ks
}

// Logits returns the buffer the step writes the logits to (Seq × Vocab
// float32s).
func (m *Model) Logits() *wgpu.Buffer { return m.bufs[m.logits] }

// Buffer returns buffer i of [Model.Buffers] as the step binds it: nil for
// a pooled temporary between steps.
func (m *Model) Buffer(i int) *wgpu.Buffer { return m.bufs[i] }

// Step runs one forward pass: it takes the temporaries from the pool (when
// pooled), calls launch for each launch in order with its buffers in
// binding order, and hands the temporaries back to the pool, also when a
// launch fails. launch must not keep args.
func (m *Model) Step(launch func(o *Op, args []gpu.Buffer) error) (err error) {
	if m.pooled {
		defer func() {
			for i, s := range m.specs {
				if s.Temp && m.bufs[i] != nil {
					m.bufs[i].Recycle()
					m.bufs[i] = nil
				}
			}
		}()
		for i, s := range m.specs {
			if s.Temp {
				if m.bufs[i], err = m.d.TempBuffer(s.Size, s.Usage); err != nil {
					return err
				}
			}
		}
	}
	for i, l := range m.launches {
		args := m.args[i]
		for j, b := range l.Args {
			args[j] = m.bufs[b]
		}
		if err := launch(l.Op, args); err != nil {
			return fmt.Errorf("launch %d (%s): %w", i, l.Op.Name, err)
		}
	}
	return nil
}

// Tuned returns a Step launch function that runs each tunable op through
// tu (which decides its variant, measuring it first if the key is
// undecided) and each fixed op through c, tu's client.
func Tuned(ctx context.Context, tu *tune.Tuner, c *client.Client) func(*Op, []gpu.Buffer) error {
	return func(o *Op, args []gpu.Buffer) error {
		if o.Tunable() {
			_, err := tu.Run(ctx, o.Tune, args...)
			return err
		}
		v := o.Variants[0]
		return c.Launch(v.Kernel, v.Workgroups, args...)
	}
}

// Chosen returns a Step launch function that launches, through c, each
// op's variant named in winners by its key (a fixed op's only variant);
// an op without a winner runs its first variant.
func Chosen(c *client.Client, winners map[string]string) func(*Op, []gpu.Buffer) error {
	return func(o *Op, args []gpu.Buffer) error {
		v, ok := o.Variant(winners[o.Key])
		if !ok {
			v = o.Variants[0]
		}
		return c.Launch(v.Kernel, v.Workgroups, args...)
	}
}

// ReadLogits reads the logits of the last step.
func (m *Model) ReadLogits(ctx context.Context) ([]float32, error) {
	l := m.Logits()
	return wgpu.Read[float32](ctx, l, 0, int(l.Size()/4))
}

// tuneOp makes o's tune op: a candidate per variant, measured on fresh
// buffers shaped like those of o's first launch.
func (m *Model) tuneOp(o *Op) tune.Op {
	var first []int
	for _, l := range m.launches {
		if l.Op == o {
			first = l.Args
			break
		}
	}
	t := tune.Op{Key: o.Key, NewInputs: m.newInputs(first)}
	for _, v := range o.Variants {
		t.Candidates = append(t.Candidates, tune.Candidate{Name: v.Name, Kernels: []*gpu.Kernel{v.Kernel}, Run: func(_ context.Context, c *client.Client, in []gpu.Buffer) error {
			return c.Launch(v.Kernel, v.Workgroups, in...)
		}})
	}
	return t
}

// newInputs returns an Op.NewInputs making a fresh buffer for each of
// slots, with the same size, usage and contents (activations zeroed): a
// measurement does a real launch's work without touching the step's
// buffers.
func (m *Model) newInputs(slots []int) func(context.Context) ([]gpu.Buffer, func(), error) {
	return scratch.Inputs(m.d, func(bufs *scratch.Buffers) error {
		for _, i := range slots {
			s := m.specs[i]
			b, err := bufs.New(s.Size, s.Usage)
			if err != nil {
				return err
			}
			if s.Data != nil {
				err = wgpu.Write(b, 0, s.Data)
			} else {
				err = b.Clear(0, s.Size)
			}
			if err != nil {
				return err
			}
		}
		return nil
	})
}

// bytesOf returns v's bytes, little-endian as on every host this builds
// for with cgo (amd64, arm64 and 386: WGSL reads little-endian).
func bytesOf[T float32 | uint32](v []T) []byte {
	if len(v) == 0 {
		return nil
	}
	return unsafe.Slice((*byte)(unsafe.Pointer(&v[0])), len(v)*4)
}

const uniformUsage = wgpu.BufferUsageUniform | wgpu.BufferUsageCopyDst

// builder state: buffer specs and ops made while build runs.
func (m *Model) buffer(name string, floats int, data []byte, temp bool) int {
	m.specs = append(m.specs, BufferSpec{Name: name, Size: uint64(4 * floats), Usage: wgpu.BufferUsageDefault, Data: data, Temp: temp})
	return len(m.specs) - 1
}

// newBuilder returns a Model of c on d with weights w and nothing built.
func newBuilder(d *wgpu.Device, c Config, w *Weights) *Model {
	return &Model{Config: c, W: w, d: d, kernels: map[string]*gpu.Kernel{},
		byDims: map[string]*Op{}, opDims: map[*Op]int{}, named: map[string]int{}}
}

// op returns the op called name whose sizes uniform holds dims, and that
// uniform: made at its first use, with variants, and the same op at every
// later one (one key, one tune, one uniform per shape).
func (m *Model) op(name, key string, dims [4]uint32, variants ...Variant) (*Op, int) {
	id := fmt.Sprint(name, dims)
	if o, ok := m.byDims[id]; ok {
		return o, m.opDims[o]
	}
	o := &Op{Name: name, Key: key, Variants: variants}
	m.ops = append(m.ops, o)
	u := dims[:]
	m.specs = append(m.specs, BufferSpec{Name: name + "/dims", Size: 16, Usage: uniformUsage, Data: bytesOf(u)})
	m.byDims[id], m.opDims[o] = o, len(m.specs)-1
	return o, len(m.specs) - 1
}

func (m *Model) launch(o *Op, args ...int) {
	m.launches = append(m.launches, Launch{Op: o, Args: args})
}

// kernel returns the kernel of src's entry main with the given override
// constants, one per name.
func (m *Model) kernel(name, src string, consts map[string]float64) *gpu.Kernel {
	if k, ok := m.kernels[name]; ok {
		return k
	}
	k := gpu.NewKernel("decoder/"+name, src, "main").WithConstants(consts)
	m.kernels[name] = k
	return k
}

func ceilDiv(a, b int) uint32 { return uint32((a + b - 1) / b) }

// flat returns the workgroups of a 1-D launch over n elements, w to a
// workgroup, as the element-wise kernels lay them out: rows of at most
// 65535 workgroups (WebGPU's default maxComputeWorkgroupsPerDimension).
func flat(n, w int) [3]uint32 {
	g := (n + w - 1) / w
	x := min(g, math.MaxUint16)
	return [3]uint32{uint32(x), uint32((g + x - 1) / x), 1}
}

// elementwise returns an op of one variant of src over n elements.
func (m *Model) elementwise(name, src string, dims [4]uint32, n int) (*Op, int) {
	const w = 64
	k := m.kernel(name+"/wg64", src, map[string]float64{"W": w})
	return m.op(name, "", dims, Variant{Name: "wg64", Kernel: k, Workgroups: flat(n, w)})
}

// matmulOp returns the op out = a·w + bias for a rows×k, w k×n: naive,
// tiled and vec4 (n a multiple of 4), at two workgroup sizes.
func (m *Model) matmulOp(rows, n, k int) (*Op, int) {
	var vs []Variant
	for _, v := range []struct {
		name string
		src  string
		t    int
		vec  int
	}{
		{"naive-8x8", kernels.MatmulNaive, 8, 1},
		{"tiled-8", kernels.MatmulTiled, 8, 1},
		{"tiled-16", kernels.MatmulTiled, 16, 1},
		{"vec4-8x8", kernels.MatmulVec4, 8, 4},
		{"vec4-16x16", kernels.MatmulVec4, 16, 4},
	} {
		if n%v.vec != 0 {
			continue
		}
		kern := m.kernel("matmul/"+v.name, v.src, map[string]float64{"T": float64(v.t)})
		vs = append(vs, Variant{Name: v.name, Kernel: kern, Workgroups: [3]uint32{ceilDiv(n/v.vec, v.t), ceilDiv(rows, v.t), 1}})
	}
	return m.op("matmul", fmt.Sprintf("decoder/matmul/%dx%dx%d", rows, n, k), [4]uint32{uint32(rows), uint32(n), uint32(k), 0}, vs...)
}

// rowOp returns a row-wise op (layer norm, softmax) over rows×cols: a
// thread per row, or a workgroup of 64 or 256 per row.
func (m *Model) rowOp(name, rowSrc, groupSrc string, rows, cols int) (*Op, int) {
	vs := []Variant{{Name: "thread-per-row", Kernel: m.kernel(name+"/thread-per-row", rowSrc, map[string]float64{"W": 64}),
		Workgroups: [3]uint32{ceilDiv(rows, 64), 1, 1}}}
	for _, w := range []int{64, 256} {
		vn := fmt.Sprintf("group-per-row-%d", w)
		vs = append(vs, Variant{Name: vn, Kernel: m.kernel(name+"/"+vn, groupSrc, map[string]float64{"W": float64(w)}),
			Workgroups: [3]uint32{uint32(rows), 1, 1}})
	}
	return m.op(name, fmt.Sprintf("decoder/%s/%dx%d", name, rows, cols), [4]uint32{uint32(rows), uint32(cols), 0, 0}, vs...)
}

// build lays out the step's buffers, ops and launches: the stages of
// [Config.modelStages] over the Seq tokens.
func (m *Model) build() error {
	c, w := m.Config, m.W
	if len(w.Layers) != c.Layers || len(w.Tokens) != c.Seq || len(w.Head) != c.Width*c.Vocab {
		return errors.New("decoder: the weights are not of this config")
	}
	sh := shape{rows: c.Seq, keys: c.Seq}
	bufs := map[string]int{"tokens": m.buffer("tokens", len(w.Tokens), bytesOf(w.Tokens), false)}
	m.addActivations(bufs, sh, true)
	m.logits = m.buffer("logits", c.Seq*c.Vocab, nil, false)
	bufs["logits"] = m.logits
	m.launchStages(c.modelStages(), sh, bufs)
	return nil
}

// addActivations adds the buffers of the step's activations, sized for sh,
// to bufs.
func (m *Model) addActivations(bufs map[string]int, sh shape, temp bool) {
	for _, name := range activations {
		bufs[name] = m.buffer(name, sh.rows*m.width(name, sh.keys), nil, temp)
	}
}

// launchStages adds a launch of each of stages, sized by sh: its op
// (opOf) and its tensors, those of bufs by name, the others weights,
// uploaded at their first use.
func (m *Model) launchStages(stages []stage, sh shape, bufs map[string]int) {
	weights := m.W.named()
	for _, s := range stages {
		o, dims := m.opOf(s, sh)
		args := []int{dims}
		for _, name := range s.args {
			b, ok := bufs[name]
			if !ok {
				if b, ok = m.named[name]; !ok {
					v, ok := weights[name]
					if !ok {
						panic("decoder: stage " + s.op + " binds " + name + ", neither a buffer of the step nor a weight")
					}
					b = m.buffer(name, len(v), bytesOf(v), false)
					m.named[name] = b
				}
			}
			args = append(args, b)
		}
		m.launch(o, args...)
	}
}

// opOf returns the op of stage s at shape sh and its sizes uniform: its
// kernels, variants, tune key and workgroups.
func (m *Model) opOf(s stage, sh shape) (*Op, int) {
	c, rows, keys := m.Config, sh.rows, sh.keys
	d, heads := c.Width, c.Heads
	width := func(arg int) int { return c.width(s.args[arg], keys) }
	w64 := map[string]float64{"W": 64}
	switch s.op {
	case opEmbed:
		return m.elementwise(s.op, kernels.Embed, u32(rows, d), rows*d)
	case opEmbedAt:
		return m.op(s.op, "", u32(d), Variant{Name: "wg64",
			Kernel: m.kernel("embed-at/wg64", kernels.EmbedAt, w64), Workgroups: [3]uint32{ceilDiv(d, 64), 1, 1}})
	case opLayerNorm:
		return m.rowOp(s.op, kernels.LayerNormRow, kernels.LayerNormGroup, rows, width(0))
	case opMatmul:
		return m.matmulOp(rows, width(3), width(0))
	case opAttnScores:
		return m.op(s.op, "", u32(rows, d, heads), Variant{Name: "wg8x8",
			Kernel:     m.kernel("attn-scores/wg8x8", kernels.AttnScores, map[string]float64{"W": 8}),
			Workgroups: [3]uint32{ceilDiv(rows, 8), ceilDiv(rows, 8), uint32(heads)}})
	case opSoftmax:
		return m.rowOp(s.op, kernels.SoftmaxRow, kernels.SoftmaxGroup, heads*rows, keys)
	case opAttnValues:
		return m.elementwise(s.op, kernels.AttnValues, u32(rows, d, heads), rows*d)
	case opKVStore:
		return m.elementwise(s.op, kernels.KVStore, u32(rows, d, keys), rows*d)
	case opAttnScoresKV:
		return m.op(s.op, "", u32(rows, d, heads, keys), Variant{Name: "wg8x8",
			Kernel:     m.kernel("attn-scores-kv/wg8x8", kernels.AttnScoresKV, map[string]float64{"W": 8}),
			Workgroups: [3]uint32{ceilDiv(keys, 8), ceilDiv(rows, 8), uint32(heads)}})
	case opAttnValuesKV:
		return m.elementwise(s.op, kernels.AttnValuesKV, u32(rows, d, heads, keys), rows*d)
	case opAdd:
		return m.elementwise(s.op, kernels.Add, u32(rows*width(0)), rows*width(0))
	case opGELU:
		return m.elementwise(s.op, kernels.GELU, u32(rows*width(0)), rows*width(0))
	case opArgmax: // over the last row
		return m.op(s.op, "", u32(c.Vocab, rows-1), Variant{Name: "wg64",
			Kernel: m.kernel("argmax/wg64", kernels.Argmax, w64), Workgroups: [3]uint32{1, 1, 1}})
	case opStoreRow:
		return m.elementwise(s.op, kernels.StoreRow, u32(c.Vocab), c.Vocab)
	}
	panic("decoder: no op " + s.op)
}

// u32 returns a sizes uniform of up to four sizes.
func u32(v ...int) [4]uint32 {
	var a [4]uint32
	for i, x := range v {
		a[i] = uint32(x)
	}
	return a
}
