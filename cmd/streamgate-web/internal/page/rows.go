package page

import (
	"fmt"
	"strconv"
	"strings"
)

// Row is one line of the page's table: a label and its value.
type Row struct {
	Label, Value string
}

// Rows is the table the page shows for r, in the order and words of
// streamgate generate's text: the model, the adapter, the warm-up, the
// generation, the CPU check and the cold run.
func Rows(r Result) []Row {
	rows := []Row{
		{"model", fmt.Sprintf("a GPT-2-style decoder, %d layers, width %d, %d heads, vocabulary %d, a KV cache of %d rows", r.Layers, r.Width, r.Heads, r.Vocab, r.MaxSeq)},
		{"adapter", r.Adapter},
		{"prompt", fmt.Sprintf("%s (%d tokens; then %d generated greedily)", joinIDs(r.Prompt), len(r.Prompt), r.Tokens)},
		{"launches", fmt.Sprintf("prefill %d, a token %d; %d captured by the warm-up (none executed), %d executed by the generation in %d replays",
			r.LaunchesPrefill, r.LaunchesPerToken, r.LaunchesCaptured, r.LaunchesExecuted, r.Replays)},
		{"warm-up", fmt.Sprintf("%.0f ms: %d pipelines compiled, %d tunable keys (%d tuned, %d found in the tune cache), %d measurement launches, %d winners primed in %.0f ms",
			r.WarmupMs, r.WarmupCompiles, r.Keys, r.TunedKeys, r.CacheHits, r.MeasurementLaunches, r.Primed, r.PrimeMs)},
		{"tune cache", cacheRow(r.Cache)},
		{"compiles avoided", fmt.Sprintf("%d (the generation compiled %d pipelines; the warm-up compiled them before it)", r.CompilesAvoided, r.RealPassCompiles)},
		{"GPU buffers created", fmt.Sprintf("%d after the first token (staging included)", r.BuffersCreated)},
		{"generated", joinIDs(r.Generated)},
	}
	check := "not run"
	switch {
	case r.CPUCheck:
		check = fmt.Sprintf("passed: every token is the float64 reference's greedy token; logits max abs error %.2g", r.MaxAbsError)
	case len(r.Generated) > 0:
		check = "FAILED"
	}
	rows = append(rows,
		Row{"CPU check", check},
		Row{"time to first token, warm", fmt.Sprintf("%.2f ms (the prefill's replay and the first token's read-back)", r.TTFTMsWarm)},
		Row{"per token, warm", fmt.Sprintf("%.3f ms median, p99 %.3f ms over %d decode steps: %.0f tokens/s", r.TokenMsMedian, r.TokenMsP99, len(r.TokenMs), r.TokensPerS)},
		Row{"clock", clock(r.Isolated)},
	)
	if r.Cold {
		coldCheck := "FAILED"
		if r.ColdCPUCheck {
			coldCheck = "passed"
		}
		rows = append(rows,
			Row{"time to first token, cold", fmt.Sprintf("%.2f ms (a fresh device, no warm-up: %d pipelines compiled before it; cold ÷ warm %.1fx)", r.TTFTMsCold, r.ColdCompiles, ratio(r.TTFTMsCold, r.TTFTMsWarm))},
			Row{"per token, cold", fmt.Sprintf("first decode step %.2f ms, then %.3f ms median; CPU check %s", r.ColdFirstStepMs, r.ColdTokenMsMed, coldCheck)},
		)
	}
	return rows
}

func cacheRow(c string) string {
	switch c {
	case CacheStorage:
		return "the page's localStorage (tune/webcache): a reload finds the winners and measures nothing"
	case CacheMemory:
		return "memory: this page load's only"
	}
	return c
}

func clock(isolated bool) string {
	if isolated {
		return "performance.now, the page cross-origin isolated (Chromium: 5 µs steps)"
	}
	return "performance.now, the page not cross-origin isolated (Chromium: 100 µs steps)"
}

func ratio(a, b float64) float64 {
	if b == 0 {
		return 0
	}
	return a / b
}

func joinIDs(ids []uint32) string {
	s := make([]string, len(ids))
	for i, id := range ids {
		s[i] = strconv.FormatUint(uint64(id), 10)
	}
	return strings.Join(s, " ")
}
