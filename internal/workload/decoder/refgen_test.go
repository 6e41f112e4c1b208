package decoder_test

import (
	"math"
	"strings"
	"testing"

	"github.com/streamgate/streamgate/internal/workload/decoder"
)

var refCfg = decoder.Config{Layers: 2, Width: 12, Heads: 3, Seq: 10, Vocab: 20, Seed: 3}

// TestReferenceGenerateIsPrefill: the KV-cache reference, fed the tokens
// one position at a time, gives the logits of the full causal forward pass
// (Reference) at every position.
func TestReferenceGenerateIsPrefill(t *testing.T) {
	w := decoder.NewWeights(refCfg)
	full := decoder.Reference(refCfg, w)
	gen := decoder.ReferenceGenerate(refCfg, w, w.Tokens, 1)
	if len(gen.Logits) != refCfg.Seq {
		t.Fatalf("len(Logits) = %d, want %d", len(gen.Logits), refCfg.Seq)
	}
	for pos, row := range gen.Logits {
		for j, v := range row {
			if want := full[pos*refCfg.Vocab+j]; math.Abs(v-want) > 1e-9 {
				t.Fatalf("position %d logit %d = %v, want %v", pos, j, v, want)
			}
		}
	}
	if got, want := gen.Tokens[0], decoder.Argmax(gen.Logits[refCfg.Seq-1]); got != want {
		t.Errorf("Tokens[0] = %d, want the argmax %d", got, want)
	}
}

func TestArgmax(t *testing.T) {
	nan := math.NaN()
	for _, tc := range []struct {
		in   []float64
		want uint32
	}{
		{[]float64{1, 3, 2}, 1},
		{[]float64{3, 1, 3}, 0}, // the first on a tie
		{[]float64{nan, 1, 2}, 2},
		{[]float64{nan, nan}, math.MaxUint32},
		{[]float64{math.Inf(-1), math.Inf(-1)}, 0},
	} {
		if got := decoder.Argmax(tc.in); got != tc.want {
			t.Errorf("Argmax(%v) = %d, want %d", tc.in, got, tc.want)
		}
	}
}

// TestCheckGeneration: the check passes the reference itself (as float32)
// and catches a wrong token, a wrong logit and missing positions, naming
// the position.
func TestCheckGeneration(t *testing.T) {
	w := decoder.NewWeights(refCfg)
	const p, n = 4, 5
	want := decoder.ReferenceGenerate(refCfg, w, w.Tokens[:p], n)
	good := func() ([]uint32, [][]float32) {
		tokens := append([]uint32(nil), want.Tokens...)
		var logits [][]float32
		for _, row := range want.Logits {
			r := make([]float32, len(row))
			for i, v := range row {
				r[i] = float32(v)
			}
			logits = append(logits, r)
		}
		return tokens, logits
	}
	tokens, logits := good()
	if maxErr, err := decoder.CheckGeneration(want, tokens, logits, p); err != nil || maxErr > 1e-6 {
		t.Fatalf("CheckGeneration(the reference) = %v, %v; want nil, under 1e-6", maxErr, err)
	}
	for _, tc := range []struct {
		name string
		brk  func(tokens []uint32, logits [][]float32) ([]uint32, [][]float32)
		want string
	}{
		{"token", func(tk []uint32, l [][]float32) ([]uint32, [][]float32) {
			tk[2] = (tk[2] + 1) % uint32(refCfg.Vocab)
			return tk, l
		}, "position 6: generated token"},
		{"first token", func(tk []uint32, l [][]float32) ([]uint32, [][]float32) {
			tk[0] = (tk[0] + 1) % uint32(refCfg.Vocab)
			return tk, l
		}, "position 4: generated token"},
		{"logit", func(tk []uint32, l [][]float32) ([]uint32, [][]float32) {
			l[5][3] += 0.01
			return tk, l
		}, "position 5: logits max abs error"},
		{"nan", func(tk []uint32, l [][]float32) ([]uint32, [][]float32) {
			l[1][0] = float32(math.NaN())
			return tk, l
		}, "position 1: logits"},
		{"short", func(tk []uint32, l [][]float32) ([]uint32, [][]float32) { return tk[:n-1], l }, "4 tokens generated"},
		{"positions", func(tk []uint32, l [][]float32) ([]uint32, [][]float32) { return tk, l[:len(l)-1] }, "logits of 7 positions"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tk, l := tc.brk(good())
			_, err := decoder.CheckGeneration(want, tk, l, p)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("CheckGeneration = %v, want an error containing %q", err, tc.want)
			}
		})
	}
}
