//go:build cgo || js

package genrun

import (
	"context"
	"time"

	"github.com/streamgate/streamgate/client"
	"github.com/streamgate/streamgate/gpu"
	"github.com/streamgate/streamgate/internal/workload/decoder"
	"github.com/streamgate/streamgate/tune"
)

// TunedLaunch is decoder.Tuned for the demo: each tunable op runs through
// tu, its result to record; a launch first checks ctx and returns
// [ErrInterrupted] once it has ended, so that the step stops at a launch
// boundary, while a tune or a launch already started finishes (the work
// runs on ctx without its cancel).
func TunedLaunch(ctx context.Context, tu *tune.Tuner, c *client.Client, record func(*decoder.Op, *tune.Result)) func(*decoder.Op, []gpu.Buffer) error {
	work := context.WithoutCancel(ctx)
	return func(o *decoder.Op, args []gpu.Buffer) error {
		if ctx.Err() != nil {
			return ErrInterrupted
		}
		if o.Tunable() {
			res, err := tu.Run(work, o.Tune, args...)
			if res != nil {
				record(o, res)
			}
			return err
		}
		v := o.Variants[0]
		return c.Launch(v.Kernel, v.Workgroups, args...)
	}
}

// Capture captures the prefill and the decode step of g into two graphs
// of c, each launch made by launch (under a discarding process mode this
// is the warm-up: the kernels compile and the tunable ops are tuned,
// nothing executes). On an error it releases what it captured and
// returns nil graphs; else the caller releases both.
func Capture(c *client.Client, g *decoder.Generator, launch func(*decoder.Op, []gpu.Buffer) error) (pre, dec *client.Graph, err error) {
	pre, err = c.Capture(func() error { return g.Prefill(launch) })
	if err != nil {
		return nil, nil, err
	}
	dec, err = c.Capture(func() error { return g.Decode(launch) })
	if err != nil {
		pre.Release()
		return nil, nil, err
	}
	return pre, dec, nil
}

// Prime primes the pipelines of the prefill's and the decode step's
// launches (their ops' variants in winners), each kernel once, on a
// stream of its own that it closes (see [PrimePipelines]). It returns how
// many it primed and the time it took.
func Prime(ctx context.Context, g *decoder.Generator, winners map[string]string) (int, time.Duration, error) {
	start, id := time.Now(), gpu.NewStreamID()
	d := g.Device()
	defer d.CloseStream(id)
	seen := map[*gpu.Kernel]bool{}
	n, err := PrimePipelines(ctx, g, g.PrefillPlan(), winners, seen, id)
	if err == nil {
		var more int
		more, err = PrimePipelines(ctx, g, g.DecodePlan(), winners, seen, id)
		n += more
	}
	return n, time.Since(start), err
}

// PrimePipelines compiles the pipeline of each launch of plan (its op's
// variant in winners) that is not in seen, and dispatches it once, with 0
// workgroups, on stream id of the device, then syncs the stream; it
// returns how many it primed. A dispatch of 0 workgroups runs nothing,
// but lavapipe (llvmpipe) generates a compute shader's machine code at
// its first dispatch, not when the pipeline is created: about 0.1 s a
// pipeline there, which a warm-up that only creates pipelines would leave
// to the first real launch whenever Mesa's shader cache does not hold it.
func PrimePipelines(ctx context.Context, g *decoder.Generator, plan []decoder.Launch, winners map[string]string, seen map[*gpu.Kernel]bool, id gpu.StreamID) (int, error) {
	d := g.Device()
	n := 0
	var args []gpu.Buffer
	for _, l := range plan {
		k := ChosenVariant(l.Op, winners).Kernel
		if seen[k] {
			continue
		}
		seen[k] = true
		if err := d.Compile(ctx, k); err != nil {
			return n, err
		}
		args = args[:0]
		for _, b := range l.Args {
			args = append(args, g.Buffer(b))
		}
		if err := d.Launch(id, k, [3]uint32{}, args...); err != nil {
			return n, err
		}
		n++
	}
	return n, d.Sync(ctx, id)
}

// ChosenVariant is the variant decoder.Chosen launches for o.
func ChosenVariant(o *decoder.Op, winners map[string]string) decoder.Variant {
	if v, ok := o.Variant(winners[o.Key]); ok {
		return v
	}
	return o.Variants[0]
}
