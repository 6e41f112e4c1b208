//go:build cgo || js

package genrun

import (
	"context"
	"fmt"
	"time"

	"github.com/streamgate/streamgate/client"
	"github.com/streamgate/streamgate/internal/workload/decoder"
	"github.com/streamgate/streamgate/registry"
)

// Run is a generation's tokens and times.
type Run struct {
	Tokens  []uint32        // the prefill's token, then one a decode step
	TTFT    time.Duration   // the prefill to its token read back
	Steps   []time.Duration // each decode step: the state written to the token read back
	Created int64           // GPU buffers created after the first token (staging included)
}

// Replayed runs the generation of n tokens by replaying the captured
// graphs: the prefill once, then the decode step per token, the state
// written before each. ctx is checked at each token boundary: once it
// has ended Replayed returns the run so far and [ErrInterrupted], while a
// token already started is read to its end.
func Replayed(ctx context.Context, g *decoder.Generator, c *client.Client, pre, dec *client.Graph, n int) (Run, error) {
	work := context.WithoutCancel(ctx)
	d := g.Device()
	r := Run{Tokens: make([]uint32, 0, n), Steps: make([]time.Duration, 0, n-1)}
	start := time.Now()
	if err := c.Replay(pre); err != nil {
		return Run{}, fmt.Errorf("prefill replay: %w", err)
	}
	tok, err := g.ReadNext(work)
	if err != nil {
		return Run{}, fmt.Errorf("the first token: %w", err)
	}
	r.TTFT = time.Since(start)
	r.Tokens = append(r.Tokens, tok)
	s0 := d.Stats()
	p := len(g.Prompt)
	for i := 1; i < n; i++ {
		if ctx.Err() != nil { // stop at a token boundary with the tokens so far
			return r, ErrInterrupted
		}
		start := time.Now()
		if err := g.SetState(p+i-1, tok); err != nil {
			return Run{}, err
		}
		if err := c.Replay(dec); err != nil {
			return Run{}, fmt.Errorf("decode replay at position %d: %w", p+i-1, err)
		}
		if tok, err = g.ReadNext(work); err != nil {
			return Run{}, fmt.Errorf("the token after position %d: %w", p+i-1, err)
		}
		r.Steps = append(r.Steps, time.Since(start))
		r.Tokens = append(r.Tokens, tok)
	}
	s1 := d.Stats()
	r.Created = s1.BuffersCreated - s0.BuffersCreated + s1.StagingCreated - s0.StagingCreated
	return r, nil
}

// Cold is what a generation without a warm-up measured: the terminal's
// cold child prints it as JSON.
type Cold struct {
	TTFTMs         float64   `json:"ttft_ms"`
	Compiles       int64     `json:"compiles"`        // pipelines compiled before the first token
	DecodeCompiles int64     `json:"decode_compiles"` // and during the first decode step
	TokenMs        []float64 `json:"token_ms"`
	Tokens         []uint32  `json:"tokens"`

	ProcessMs float64 `json:"process_ms"` // from the child's process start to its first token

	SandboxStartMs   float64 `json:"sandbox_start_ms"`
	CompileMsPrefill float64 `json:"compile_ms_prefill"`
	CompileMsDecode  float64 `json:"compile_ms_decode"`
}

// Generate runs the generation of n tokens as a process without a
// warm-up would: each op's winner launched through a client under
// ProcessExecute (a registry of its own), its pipelines compiling at
// their first launch; it checks the result against the CPU reference.
// Only the fields of Cold up to Tokens are set.
func Generate(ctx context.Context, g *decoder.Generator, winners map[string]string, n int) (*Cold, error) {
	d := g.Device()
	c := client.New(d, client.WithRegistry(registry.New())) // ProcessExecute
	defer c.Close()
	launch := decoder.Chosen(c, winners)
	var rep Cold
	compiles0 := d.Stats().Compiles
	start := time.Now()
	if err := g.Prefill(launch); err != nil {
		return nil, fmt.Errorf("prefill: %w", err)
	}
	tok, err := g.ReadNext(ctx)
	if err != nil {
		return nil, fmt.Errorf("the first token: %w", err)
	}
	rep.TTFTMs, rep.Compiles = Ms(time.Since(start)), d.Stats().Compiles-compiles0
	rep.Tokens = append(rep.Tokens, tok)
	p := len(g.Prompt)
	for i := 1; i < n; i++ {
		start := time.Now()
		if err := g.SetState(p+i-1, tok); err != nil {
			return nil, err
		}
		if err := g.Decode(launch); err != nil {
			return nil, fmt.Errorf("decode at position %d: %w", p+i-1, err)
		}
		if tok, err = g.ReadNext(ctx); err != nil {
			return nil, fmt.Errorf("the token after position %d: %w", p+i-1, err)
		}
		rep.TokenMs = append(rep.TokenMs, Ms(time.Since(start)))
		rep.Tokens = append(rep.Tokens, tok)
		if i == 1 {
			rep.DecodeCompiles = d.Stats().Compiles - compiles0 - rep.Compiles
		}
	}
	logits, err := g.ReadLogits(ctx, n-1)
	if err != nil {
		return nil, err
	}
	want := decoder.ReferenceGenerate(g.Config, g.W, g.Prompt, n)
	if _, err := decoder.CheckGeneration(want, rep.Tokens, logits, p); err != nil {
		return nil, err
	}
	return &rep, nil
}
