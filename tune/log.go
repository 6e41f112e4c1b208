package tune

import (
	"context"
	"log/slog"

	"github.com/streamgate/streamgate/internal/low/slogwarn"
)

// defaultLogger is what a Tuner logs to when the program gives no logger:
// warnings and errors, to whatever slog.Default() is at the time of each
// message.
func defaultLogger() *slog.Logger { return slogwarn.New() }

// logDecision writes one Info record for a measured decision: the key, the
// winner, the timing method, and each candidate's score, samples and status
// (with its error when it failed), best first.
func (t *Tuner) logDecision(ctx context.Context, res *Result) {
	if !t.log.Enabled(ctx, slog.LevelInfo) {
		return
	}
	cands := make([]any, 0, len(res.Rows))
	for _, row := range res.Rows {
		attrs := []any{slog.String("status", row.Status.String()), slog.Duration("score", row.Score), slog.Int("samples", len(row.Samples))}
		if row.Err != nil {
			attrs = append(attrs, slog.String("err", firstLine(row.Err.Error())))
		}
		cands = append(cands, slog.Group(row.Name, attrs...))
	}
	t.log.LogAttrs(ctx, slog.LevelInfo, "tune: decided",
		slog.String("key", res.Key), slog.String("device", t.device), slog.String("winner", res.Winner),
		slog.String("timing", res.Timing.String()), slog.Group("candidates", cands...))
}
