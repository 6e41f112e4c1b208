package page

import (
	"fmt"
	"net/url"
	"strconv"
	"strings"

	"github.com/streamgate/streamgate/internal/workload/decoder"
)

// Config is what the page's query sets: the model, the prompt and the
// run, as streamgate generate's flags of the same names do.
type Config struct {
	Model  decoder.Config
	Prompt []uint32 // the first prompt-len of the weights' tokens
	Tokens int      // to generate
	Cold   bool     // also run the generation cold
	Store  bool     // keep the tune cache in the page's localStorage (tune/webcache), not in memory
	Export bool     // publish a bundle of the tune winners in Result.Bundle
}

// ParseQuery reads the page's query q ("?tokens=8&layers=2": layers,
// width, heads, vocab, max-seq, prompt-len, tokens, seed, cold, store,
// export), each absent one at the default of streamgate generate (export
// at false). Its error names the
// bad parameter.
func ParseQuery(q string) (Config, error) {
	v, err := url.ParseQuery(strings.TrimPrefix(q, "?"))
	if err != nil {
		return Config{}, fmt.Errorf("the page's query %q: %v", q, err)
	}
	cfg := Config{Model: decoder.Config{Layers: 4, Width: 128, Heads: 4, Vocab: 1000, Seq: 64, Seed: 1}, Tokens: 32, Cold: true, Store: true}
	promptLen := 16
	ints := []struct {
		name string
		p    *int
	}{{"layers", &cfg.Model.Layers}, {"width", &cfg.Model.Width}, {"heads", &cfg.Model.Heads},
		{"vocab", &cfg.Model.Vocab}, {"max-seq", &cfg.Model.Seq}, {"prompt-len", &promptLen}, {"tokens", &cfg.Tokens}}
	for _, f := range ints {
		if s := v.Get(f.name); s != "" {
			n, err := strconv.Atoi(s)
			if err != nil {
				return Config{}, fmt.Errorf("the page's query: %s=%q is not an integer", f.name, s)
			}
			*f.p = n
		}
	}
	if s := v.Get("seed"); s != "" {
		n, err := strconv.ParseUint(s, 10, 64)
		if err != nil {
			return Config{}, fmt.Errorf("the page's query: seed=%q is not an unsigned integer", s)
		}
		cfg.Model.Seed = n
	}
	for _, f := range []struct {
		name string
		p    *bool
	}{{"cold", &cfg.Cold}, {"store", &cfg.Store}, {"export", &cfg.Export}} {
		if s := v.Get(f.name); s != "" {
			b, err := strconv.ParseBool(s)
			if err != nil {
				return Config{}, fmt.Errorf("the page's query: %s=%q is not a boolean", f.name, s)
			}
			*f.p = b
		}
	}
	if err := cfg.Model.Validate(); err != nil {
		return Config{}, fmt.Errorf("the page's query: %v", err)
	}
	switch {
	case cfg.Tokens < 2:
		return Config{}, fmt.Errorf("the page's query: tokens must be at least 2, got %d", cfg.Tokens)
	case promptLen < 1 || promptLen > cfg.Model.Seq:
		return Config{}, fmt.Errorf("the page's query: prompt-len must be in 1..%d (max-seq), got %d", cfg.Model.Seq, promptLen)
	}
	cfg.Prompt = decoder.NewWeights(cfg.Model).Tokens[:promptLen]
	if err := cfg.Model.ValidatePrompt(cfg.Prompt, cfg.Tokens); err != nil {
		return Config{}, fmt.Errorf("the page's query: %v", err)
	}
	return cfg, nil
}
