//go:build cgo

package bench

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"unsafe"

	"github.com/streamgate/streamgate/gpu"
	"github.com/streamgate/streamgate/internal/workload/decoder"
	"github.com/streamgate/streamgate/internal/workload/rawwgpu"
	"github.com/streamgate/streamgate/registry"
	"github.com/streamgate/streamgate/wgpu"
)

// modelConfig is the decoder the ModelStep cases run: small, so that the
// GPU's work (lavapipe runs the dispatches on the same CPUs) hides the
// launch path as little as it can, in 4 layers
// (modelConfig.Launches() launches a step).
var modelConfig = decoder.Config{Layers: 4, Width: 32, Heads: 2, Seq: 8, Vocab: 64, Seed: 1}

// modelLaunch is one launch of the step as the bench records it.
type modelLaunch struct {
	kernel *gpu.Kernel
	wg     [3]uint32
	args   []gpu.Buffer
}

// modelEnv is the ModelStep cases' state, made on first use: the decoder
// on the wgpu device (its activations made once, not pooled, as the
// hand-written program's are) with each op on its first variant, the same
// step as a hand-written go-webgpu program, and the CPU reference.
type modelEnv struct {
	m     *decoder.Model
	plan  []modelLaunch
	prog  *rawwgpu.Program
	want  []float64
	tol   float64
	logit int // the logits' buffer index in the program
}

// modelCases returns the ModelStep cases: one forward step of modelConfig —
// its launches, then a sync — through a client under ProcessExecute
// (impl=client), through wgpu.Device.Launch (impl=device), and hand-written
// in go-webgpu with every dispatch in one pass and one submit
// (impl=raw-one-pass, the baseline) and with an encoder, pass and submit per
// dispatch (impl=raw-submit-each); impl=client-replay captures the step once
// through a client and replays the graph each step. All of them run the same
// kernels (the driver's dialect of them for the hand-written ones) on the
// same buffers' contents; launches/s counts dispatches; the logits of the
// last step are checked against the CPU reference.
func modelCases(e *LaunchEnv) []Case {
	c := func(impl string, f func(*testing.B)) Case {
		return Case{Thing: "ModelStep", Impl: impl, Baseline: "raw-one-pass", F: f}
	}
	return []Case{
		c("client", e.modelClient),
		c("client-replay", e.modelReplay),
		c("device", e.modelDevice),
		c("raw-one-pass", func(b *testing.B) { e.modelRaw(b, (*rawwgpu.Program).OnePass) }),
		c("raw-submit-each", func(b *testing.B) { e.modelRaw(b, (*rawwgpu.Program).SubmitEach) }),
	}
}

// modelSetup makes e.model once.
func (e *LaunchEnv) modelSetup(b *testing.B) *modelEnv {
	if e.model != nil {
		return e.model
	}
	me, err := newModelEnv(e.dev, e.raw)
	if err != nil {
		fatalf(b, "model: %v", err)
	}
	e.model = me
	return me
}

func newModelEnv(d *wgpu.Device, raw *rawwgpu.Device) (me *modelEnv, err error) {
	cfg := modelConfig
	w := decoder.NewWeights(cfg)
	m, err := decoder.NewModel(d, cfg, w, false)
	if err != nil {
		return nil, err
	}
	me = &modelEnv{m: m, want: decoder.Reference(cfg, w)}
	defer func() {
		if err != nil {
			me.release()
		}
	}()
	_, maxRef := decoder.MaxAbsError(make([]float32, len(me.want)), me.want)
	me.tol = decoder.Tolerance(maxRef)

	// The plan: each launch's kernel, workgroups and buffers (fixed, as
	// the model's activations are not pooled).
	err = m.Step(func(o *decoder.Op, args []gpu.Buffer) error {
		v := o.Variants[0]
		me.plan = append(me.plan, modelLaunch{kernel: v.Kernel, wg: v.Workgroups, args: slices.Clone(args)})
		return nil
	})
	if err != nil {
		return nil, err
	}

	// The same step by hand: each kernel in the driver's dialect, a buffer
	// per model buffer with its contents, a bind group per launch.
	var ks []rawwgpu.KernelSpec
	kernelIndex := map[*gpu.Kernel]int{}
	var ds []rawwgpu.DispatchSpec
	for i, l := range m.Launches() {
		k := me.plan[i].kernel
		ki, ok := kernelIndex[k]
		info, err := wgpu.CheckKernel(context.Background(), k, wgpu.Limits{})
		if err != nil {
			return nil, err
		}
		if !ok {
			ki = len(ks)
			kernelIndex[k] = ki
			ks = append(ks, rawwgpu.KernelSpec{Source: info.Lowered, Entry: info.LoweredName})
		}
		if len(info.Bindings) != len(l.Args) {
			return nil, fmt.Errorf("%s binds %d buffers, the launch has %d", k.Name(), len(info.Bindings), len(l.Args))
		}
		ds = append(ds, rawwgpu.DispatchSpec{Kernel: ki, Workgroups: me.plan[i].wg})
		for j, bi := range l.Args {
			ds[i].Bindings = append(ds[i].Bindings, rawwgpu.BindingSpec{Binding: info.Bindings[j].Index, Buffer: bi})
		}
	}
	var bs []rawwgpu.BufferSpec
	for i, s := range m.Buffers() {
		bs = append(bs, rawwgpu.BufferSpec{Size: s.Size, Uniform: s.Usage&wgpu.BufferUsageUniform != 0, Data: s.Data})
		if m.Buffer(i) == m.Logits() {
			me.logit = i
		}
	}
	if me.prog, err = raw.NewProgram(ks, bs, ds); err != nil {
		return nil, err
	}
	return me, nil
}

func (me *modelEnv) release() {
	if me.prog != nil {
		me.prog.Release()
	}
	me.m.Release()
}

// check fails b unless got are the reference's logits.
func (me *modelEnv) check(b *testing.B, got []float32) {
	if maxErr, _ := decoder.MaxAbsError(got, me.want); !(maxErr <= me.tol) {
		fatalf(b, "ModelStep: logits max abs error %.3g against the CPU reference, tolerance %.3g", maxErr, me.tol)
	}
}

func reportLaunches(b *testing.B, perOp int) {
	reportRate(b, float64(b.N)*float64(perOp), "launches/s")
}

// runSteps times step (one model step and its sync) b.N times after one
// untimed step (the bind groups), then checks the logits of the last.
func (me *modelEnv) runSteps(b *testing.B, step func() error) {
	if err := step(); err != nil {
		fatalf(b, "%v", err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := step(); err != nil {
			fatalf(b, "%v", err)
		}
	}
	b.StopTimer()
	reportLaunches(b, len(me.plan))
	got, err := me.m.ReadLogits(context.Background())
	if err != nil {
		fatalf(b, "ReadLogits: %v", err)
	}
	me.check(b, got)
}

// launchPlan launches the step's plan through launch.
func (me *modelEnv) launchPlan(launch func(k *gpu.Kernel, wg [3]uint32, args ...gpu.Buffer) error) error {
	for _, l := range me.plan {
		if err := launch(l.kernel, l.wg, l.args...); err != nil {
			return fmt.Errorf("launch: %w", err)
		}
	}
	return nil
}

func (e *LaunchEnv) modelClient(b *testing.B) {
	me := e.modelSetup(b)
	c := e.newClient(registry.ProcessExecute)
	defer c.Close()
	ctx := context.Background()
	me.runSteps(b, func() error {
		if err := me.launchPlan(c.Launch); err != nil {
			return err
		}
		return c.Sync(ctx)
	})
}

func (e *LaunchEnv) modelReplay(b *testing.B) {
	me := e.modelSetup(b)
	c := e.newClient(registry.ProcessExecute)
	defer c.Close()
	ctx := context.Background()
	g, err := c.Capture(func() error { return me.launchPlan(c.Launch) })
	if err != nil {
		fatalf(b, "Capture: %v", err)
	}
	defer g.Release()
	me.runSteps(b, func() error {
		if err := c.Replay(g); err != nil {
			return fmt.Errorf("replay: %w", err)
		}
		return c.Sync(ctx)
	})
}

func (e *LaunchEnv) modelDevice(b *testing.B) {
	me := e.modelSetup(b)
	id := gpu.NewStreamID()
	defer e.dev.CloseStream(id)
	ctx := context.Background()
	launch := func(k *gpu.Kernel, wg [3]uint32, args ...gpu.Buffer) error { return e.dev.Launch(id, k, wg, args...) }
	me.runSteps(b, func() error {
		if err := me.launchPlan(launch); err != nil {
			return err
		}
		return e.dev.Sync(ctx, id)
	})
}

func (e *LaunchEnv) modelRaw(b *testing.B, run func(*rawwgpu.Program) error) {
	me := e.modelSetup(b)
	if err := run(me.prog); err != nil {
		fatalf(b, "%v", err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := run(me.prog); err != nil {
			fatalf(b, "%v", err)
		}
	}
	b.StopTimer()
	reportLaunches(b, len(me.plan))
	raw, err := me.prog.Read(me.logit)
	if err != nil {
		fatalf(b, "Read: %v", err)
	}
	me.check(b, unsafe.Slice((*float32)(unsafe.Pointer(&raw[0])), len(raw)/4)) // little-endian hosts, as wgpu's
}
