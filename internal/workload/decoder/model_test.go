//go:build cgo

package decoder_test

import (
	"context"
	"slices"
	"testing"

	"github.com/streamgate/streamgate/client"
	"github.com/streamgate/streamgate/internal/gputest"
	"github.com/streamgate/streamgate/internal/workload/decoder"
	"github.com/streamgate/streamgate/registry"
	"github.com/streamgate/streamgate/streamgatetest"
)

func TestMain(m *testing.M) { gputest.Main(m.Run) }

// opNames returns the op of each launch.
func opNames(ls []decoder.Launch) []string {
	var s []string
	for _, l := range ls {
		s = append(s, l.Op.Name)
	}
	return s
}

// small is a decoder whose sizes are multiples of no tile, so every bounds
// check runs; the logits' width is not a multiple of 4, so its matmul has
// no vec4 variant.
var small = decoder.Config{Layers: 2, Width: 36, Heads: 3, Seq: 9, Vocab: 50, Seed: 7}

// TestVariantsMatchReference runs the step once per variant of every op
// (the other ops on their first) and checks the logits against the CPU
// reference.
func TestVariantsMatchReference(t *testing.T) {
	d := streamgatetest.OpenDevice(t)
	w := decoder.NewWeights(small)
	want := decoder.Reference(small, w)
	m, err := decoder.NewModel(d, small, w, true)
	if err != nil {
		t.Fatalf("NewModel: %v", err)
	}
	defer m.Release()
	if got, want := len(m.Launches()), small.Launches(); got != want {
		t.Errorf("len(Launches()) = %d, want %d", got, want)
	}
	stages, _, _ := decoder.StageOps(small)
	if got := opNames(m.Launches()); !slices.Equal(got, stages) {
		t.Errorf("the launches' ops = %v, want the description's %v", got, stages)
	}
	reg := registry.New()
	c := client.New(d, client.WithRegistry(reg))
	defer c.Close()
	ctx := context.Background()
	keys := 0
	for _, o := range m.Ops() {
		if o.Tunable() {
			keys++
			if len(o.Variants) < 3 {
				t.Errorf("op %s has %d variants, want at least 3", o.Key, len(o.Variants))
			}
		}
		for _, v := range o.Variants {
			if err := m.Step(decoder.Chosen(c, map[string]string{o.Key: v.Name})); err != nil {
				t.Fatalf("%s %s: Step: %v", o.Name, v.Name, err)
			}
			got, err := m.ReadLogits(ctx)
			if err != nil {
				t.Fatalf("%s %s: ReadLogits: %v", o.Name, v.Name, err)
			}
			maxErr, maxRef := decoder.MaxAbsError(got, want)
			t.Logf("%s %s: max abs error %.3g (logits up to %.3g)", o.Name, v.Name, maxErr, maxRef)
			if tol := decoder.Tolerance(maxRef); !(maxErr <= tol) {
				t.Errorf("%s %s: max abs error %.3g, want at most %.3g", o.Name, v.Name, maxErr, tol)
			}
		}
	}
	if keys != 7 {
		t.Errorf("%d tunable keys, want 7 (5 matmul shapes, layer norm, softmax)", keys)
	}
}
