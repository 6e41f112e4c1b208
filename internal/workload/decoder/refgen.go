package decoder

import (
	"fmt"
	"math"
)

// Generation is a greedy generation: the tokens generated after a prompt
// and the logits at every position, prompt and generated, in order. The
// first token follows the prompt's last position; token i+1 is the
// greedy choice at position len(prompt)+i, so Logits has len(prompt) +
// len(Tokens) − 1 rows.
type Generation struct {
	Tokens []uint32
	Logits [][]float64 // a row of Vocab logits per position
}

// ValidatePrompt reports a prompt that is empty, holds a token id not
// below c.Vocab, or leaves no room in c.Seq (the maximum sequence
// length) for n generated tokens: len(prompt) + n − 1 positions.
func (c Config) ValidatePrompt(prompt []uint32, n int) error {
	switch {
	case len(prompt) == 0:
		return fmt.Errorf("decoder: the prompt is empty")
	case n < 1:
		return fmt.Errorf("decoder: %d tokens to generate, want at least 1", n)
	case len(prompt)+n-1 > c.Seq:
		return fmt.Errorf("decoder: a prompt of %d tokens and %d generated need %d positions, over the maximum sequence length %d",
			len(prompt), n, len(prompt)+n-1, c.Seq)
	}
	for i, t := range prompt {
		if int(t) >= c.Vocab {
			return fmt.Errorf("decoder: prompt token %d is %d, not below the vocabulary size %d", i, t, c.Vocab)
		}
	}
	return nil
}

// ReferenceGenerate generates n tokens greedily after prompt on the CPU,
// in float64 from the float32 weights, with the same KV-cache algorithm
// as the GPU's: each position's row — the prompt's one at a time —
// embedded, its keys and values stored in the cache at its row, attending
// over the cache's rows up to its own; it runs the stages of the
// [Generator]'s decode step up to the logits. c.Seq is the maximum
// sequence length; the prompt must pass [Config.ValidatePrompt].
func ReferenceGenerate(c Config, w *Weights, prompt []uint32, n int) Generation {
	r, stages := newRefStep(c, w), c.forward(opEmbedAt, cached)
	// step runs position pos, whose token is tok, and returns its logits.
	step := func(pos int, tok uint32) []float64 {
		return r.run(stages, []uint32{tok}, []int{pos})
	}
	var g Generation
	for pos, tok := range prompt {
		g.Logits = append(g.Logits, step(pos, tok))
	}
	g.Tokens = append(g.Tokens, Argmax(g.Logits[len(g.Logits)-1]))
	for i := 1; i < n; i++ {
		g.Logits = append(g.Logits, step(len(prompt)+i-1, g.Tokens[i-1]))
		g.Tokens = append(g.Tokens, Argmax(g.Logits[len(g.Logits)-1]))
	}
	return g
}

// Argmax returns the index of the largest of logits, the first on a tie,
// as the GPU's argmax kernel picks; NaNs are never picked.
func Argmax[T float32 | float64](logits []T) uint32 {
	best := -1
	for i, v := range logits {
		if v == v && (best < 0 || v > logits[best]) {
			best = i
		}
	}
	if best < 0 {
		return math.MaxUint32
	}
	return uint32(best)
}

// CheckGeneration compares a generation (tokens, and logits: a row of
// Vocab float32s per position) against the reference's: each token must
// be the reference's, each position's logits within [Tolerance] of its
// largest reference logit. The error names the first position that
// differs. It returns the largest logits error over the positions.
func CheckGeneration(want Generation, tokens []uint32, logits [][]float32, prompt int) (maxErr float64, err error) {
	if len(tokens) != len(want.Tokens) {
		return 0, fmt.Errorf("decoder: %d tokens generated, the reference has %d", len(tokens), len(want.Tokens))
	}
	if len(logits) != len(want.Logits) {
		return 0, fmt.Errorf("decoder: logits of %d positions, the reference has %d", len(logits), len(want.Logits))
	}
	for pos, row := range want.Logits {
		if len(logits[pos]) != len(row) {
			return maxErr, fmt.Errorf("decoder: position %d: %d logits, want %d", pos, len(logits[pos]), len(row))
		}
		e, ref := MaxAbsError(logits[pos], row)
		if tol := Tolerance(ref); !(e <= tol) {
			return math.Max(maxErr, e), fmt.Errorf("decoder: position %d: logits max abs error %.3g against the float64 reference, tolerance %.3g", pos, e, tol)
		}
		maxErr = math.Max(maxErr, e)
		if pos+1 >= prompt { // the token chosen at pos
			i := pos + 1 - prompt
			if got, ref := tokens[i], want.Tokens[i]; got != ref {
				gl := math.NaN()
				if int(got) < len(row) {
					gl = row[got]
				}
				return maxErr, fmt.Errorf("decoder: position %d: generated token %d (its reference logit %.6g), the reference's greedy token is %d (logit %.6g)",
					pos+1, got, gl, ref, row[ref])
			}
		}
	}
	return maxErr, nil
}
