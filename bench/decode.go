//go:build cgo

package bench

import (
	"context"
	"encoding/binary"
	"fmt"
	"testing"

	"github.com/streamgate/streamgate/gpu"
	"github.com/streamgate/streamgate/internal/workload/decoder"
	"github.com/streamgate/streamgate/internal/workload/rawwgpu"
	"github.com/streamgate/streamgate/registry"
	"github.com/streamgate/streamgate/wgpu"
)

// decodeConfig is the decoder the Decode cases generate with: modelConfig's
// sizes, a KV cache of 40 rows and a prompt of decodePrompt tokens
// (decodeConfig.DecodeLaunches() launches a decode step).
var decodeConfig = decoder.Config{Layers: 4, Width: 32, Heads: 2, Seq: 40, Vocab: 64, Seed: 1}

// decodePrompt is the Decode cases' prompt length.
const decodePrompt = 8

// decodeEnv is the Decode cases' state, made on first use: the generator
// on the wgpu device, prefilled once, each op on its first variant; the
// same prefill and decode step as a hand-written go-webgpu program,
// prefilled once too; and the reference's tokens at every position.
type decodeEnv struct {
	g      *decoder.Generator
	prog   *rawwgpu.Program
	np     int      // the program's prefill dispatches: its decode step's are np..
	tokens []uint32 // the reference's: tokens[i] is at position decodePrompt+i
	state  []byte   // the raw loop's state upload
	next   []byte   // the raw loop's read-back
}

// decodeCases returns the Decode cases: one decode step per
// op — the state (position, token) written, the step's launches, the
// chosen token read back (4 bytes) — at positions advancing from the
// prompt's end and wrapping before the cache's last row, each op's token
// checked against the CPU reference's. Through a client under
// ProcessExecute (impl=client), the step captured once and replayed
// (impl=client-replay), through wgpu.Device.Launch (impl=device), and
// hand-written in go-webgpu with the step's dispatches and the read-back
// in one submit (impl=raw-one-pass, the baseline) and with a submit per
// dispatch (impl=raw-submit-each).
func decodeCases(e *LaunchEnv) []Case {
	c := func(impl string, f func(*testing.B)) Case {
		return Case{Thing: "Decode", Impl: impl, Baseline: "raw-one-pass", F: f}
	}
	return []Case{
		c("client", e.decodeClient),
		c("client-replay", e.decodeReplay),
		c("device", e.decodeDevice),
		c("raw-one-pass", func(b *testing.B) { e.decodeRaw(b, false) }),
		c("raw-submit-each", func(b *testing.B) { e.decodeRaw(b, true) }),
	}
}

func (e *LaunchEnv) decodeSetup(b *testing.B) *decodeEnv {
	if e.decode != nil {
		return e.decode
	}
	de, err := newDecodeEnv(e.dev, e.raw)
	if err != nil {
		fatalf(b, "decode: %v", err)
	}
	e.decode = de
	return de
}

func newDecodeEnv(d *wgpu.Device, raw *rawwgpu.Device) (de *decodeEnv, err error) {
	cfg := decodeConfig
	w := decoder.NewWeights(cfg)
	prompt := w.Tokens[:decodePrompt]
	g, err := decoder.NewGenerator(d, cfg, w, prompt)
	if err != nil {
		return nil, err
	}
	de = &decodeEnv{g: g, state: make([]byte, 16), next: make([]byte, 4)}
	defer func() {
		if err != nil {
			de.release()
		}
	}()
	de.tokens = decoder.ReferenceGenerate(cfg, w, prompt, cfg.Seq-decodePrompt+1).Tokens

	// The prefill, once, through the device.
	ctx := context.Background()
	id := gpu.NewStreamID()
	defer d.CloseStream(id)
	if err := g.Prefill(deviceLaunch(d, id)); err != nil {
		return nil, err
	}
	if tok, err := g.ReadNext(ctx); err != nil || tok != de.tokens[0] {
		return nil, fmt.Errorf("the prefill chose token %d (%v), the reference %d", tok, err, de.tokens[0])
	}

	// The same by hand: each kernel in the driver's dialect, a buffer per
	// generator buffer with its contents, a bind group per dispatch.
	var ks []rawwgpu.KernelSpec
	kernelIndex := map[*gpu.Kernel]int{}
	var ds []rawwgpu.DispatchSpec
	plan := append(append([]decoder.Launch(nil), g.PrefillPlan()...), g.DecodePlan()...)
	for i, l := range plan {
		v := l.Op.Variants[0]
		info, err := wgpu.CheckKernel(ctx, v.Kernel, wgpu.Limits{})
		if err != nil {
			return nil, err
		}
		ki, ok := kernelIndex[v.Kernel]
		if !ok {
			ki = len(ks)
			kernelIndex[v.Kernel] = ki
			ks = append(ks, rawwgpu.KernelSpec{Source: info.Lowered, Entry: info.LoweredName})
		}
		if len(info.Bindings) != len(l.Args) {
			return nil, fmt.Errorf("%s binds %d buffers, the launch has %d", v.Kernel.Name(), len(info.Bindings), len(l.Args))
		}
		ds = append(ds, rawwgpu.DispatchSpec{Kernel: ki, Workgroups: v.Workgroups})
		for j, bi := range l.Args {
			ds[i].Bindings = append(ds[i].Bindings, rawwgpu.BindingSpec{Binding: info.Bindings[j].Index, Buffer: bi})
		}
	}
	var bs []rawwgpu.BufferSpec
	for _, s := range g.Buffers() {
		bs = append(bs, rawwgpu.BufferSpec{Size: s.Size, Uniform: s.Usage&wgpu.BufferUsageUniform != 0, Data: s.Data})
	}
	if de.prog, err = raw.NewProgram(ks, bs, ds); err != nil {
		return nil, err
	}
	de.np = len(g.PrefillPlan())
	if err := de.prog.RunRead(0, de.np, false, g.NextBuffer(), de.next); err != nil {
		return nil, err
	}
	if tok := binary.LittleEndian.Uint32(de.next); tok != de.tokens[0] {
		return nil, fmt.Errorf("the hand-written prefill chose token %d, the reference %d", tok, de.tokens[0])
	}
	return de, nil
}

func (de *decodeEnv) release() {
	if de.prog != nil {
		de.prog.Release()
	}
	de.g.Release()
}

// deviceLaunch launches each op's first variant through d on stream id.
func deviceLaunch(d *wgpu.Device, id gpu.StreamID) func(*decoder.Op, []gpu.Buffer) error {
	return func(o *decoder.Op, args []gpu.Buffer) error {
		v := o.Variants[0]
		return d.Launch(id, v.Kernel, v.Workgroups, args...)
	}
}

// position returns op i's position and token, and the token the step
// must choose.
func (de *decodeEnv) position(i int) (pos int, tok, want uint32) {
	k := i % (decodeConfig.Seq - decodePrompt) // positions decodePrompt..Seq-1
	return decodePrompt + k, de.tokens[k], de.tokens[k+1]
}

// runTokens times b.N decode steps, step(pos, token) returning the
// chosen token, after an untimed pass over every position (the bind
// groups, the staging buffer); every token is checked. Besides the wall
// time it reports cpu-ms/op, the process's CPU time per token over all
// its threads (Go, the driver, lavapipe's workers): on a shared machine a
// token's wall time includes waiting for a core, its CPU time does not.
func (de *decodeEnv) runTokens(b *testing.B, step func(pos int, tok uint32) (uint32, error)) {
	one := func(i int) {
		pos, tok, want := de.position(i)
		got, err := step(pos, tok)
		if err != nil {
			fatalf(b, "Decode: position %d: %v", pos, err)
		}
		if got != want {
			fatalf(b, "Decode: position %d: chose token %d, the reference %d", pos, got, want)
		}
	}
	for i := range decodeConfig.Seq - decodePrompt {
		one(i)
	}
	b.ReportAllocs()
	cpu0, cpuOK := processCPU()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		one(i)
	}
	b.StopTimer()
	if cpu1, ok := processCPU(); ok && cpuOK {
		b.ReportMetric(float64(cpu1-cpu0)/1e6/float64(b.N), "cpu-ms/op")
	}
	reportLaunches(b, decodeConfig.DecodeLaunches())
	reportRate(b, float64(b.N), "tokens/s")
}

func (e *LaunchEnv) decodeClient(b *testing.B) {
	de := e.decodeSetup(b)
	c := e.newClient(registry.ProcessExecute)
	defer c.Close()
	ctx := context.Background()
	launch := decoder.Chosen(c, nil)
	de.runTokens(b, func(pos int, tok uint32) (uint32, error) {
		if err := de.g.SetState(pos, tok); err != nil {
			return 0, err
		}
		if err := de.g.Decode(launch); err != nil {
			return 0, err
		}
		return de.g.ReadNext(ctx)
	})
}

func (e *LaunchEnv) decodeReplay(b *testing.B) {
	de := e.decodeSetup(b)
	c := e.newClient(registry.ProcessExecute)
	defer c.Close()
	ctx := context.Background()
	g, err := c.Capture(func() error { return de.g.Decode(decoder.Chosen(c, nil)) })
	if err != nil {
		fatalf(b, "Capture: %v", err)
	}
	defer g.Release()
	de.runTokens(b, func(pos int, tok uint32) (uint32, error) {
		if err := de.g.SetState(pos, tok); err != nil {
			return 0, err
		}
		if err := c.Replay(g); err != nil {
			return 0, err
		}
		return de.g.ReadNext(ctx)
	})
}

func (e *LaunchEnv) decodeDevice(b *testing.B) {
	de := e.decodeSetup(b)
	id := gpu.NewStreamID()
	defer e.dev.CloseStream(id)
	ctx := context.Background()
	launch := deviceLaunch(e.dev, id)
	de.runTokens(b, func(pos int, tok uint32) (uint32, error) {
		if err := de.g.SetState(pos, tok); err != nil {
			return 0, err
		}
		if err := de.g.Decode(launch); err != nil {
			return 0, err
		}
		return de.g.ReadNext(ctx) // flushes the stream: it binds the buffer
	})
}

func (e *LaunchEnv) decodeRaw(b *testing.B, each bool) {
	de := e.decodeSetup(b)
	state, next := de.g.StateBuffer(), de.g.NextBuffer()
	hi := de.np + len(de.g.DecodePlan())
	de.runTokens(b, func(pos int, tok uint32) (uint32, error) {
		binary.LittleEndian.PutUint32(de.state[0:], uint32(pos))
		binary.LittleEndian.PutUint32(de.state[4:], tok)
		if err := de.prog.Write(state, de.state); err != nil {
			return 0, err
		}
		if err := de.prog.RunRead(de.np, hi, each, next, de.next); err != nil {
			return 0, err
		}
		return binary.LittleEndian.Uint32(de.next), nil
	})
}
