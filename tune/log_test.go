package tune_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/streamgate/streamgate/tune"
)

// TestEachDecisionLoggedOnce: one slog Info record per measured decision,
// with the key, the winner, the timing, and each candidate's score and
// status; a decided key logs nothing more.
func TestEachDecisionLoggedOnce(t *testing.T) {
	var buf bytes.Buffer
	log := slog.New(slog.NewJSONHandler(&buf, &slog.HandlerOptions{Level: slog.LevelInfo}))
	_, c := setup(t)
	tu := tune.New(c, tune.WithDevice("test"), tune.WithLogger(log))
	op := pure("rec", sleeper("slow", 2*time.Millisecond, nil), sleeper("fast", 0, nil), failing("broken", errors.New("no")))
	for range 3 {
		_, _, err := tu.Pick(deadline(t), op)
		require.NoError(t, err)
	}
	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	require.Len(t, lines, 1, "one record: %s", buf.String())
	t.Log(lines[0])
	var rec struct {
		Level, Msg, Key, Winner, Timing string
		Candidates                      map[string]struct {
			Status  string
			Score   int64
			Samples int
			Err     string
		}
	}
	require.NoError(t, json.Unmarshal([]byte(lines[0]), &rec))
	assert.Equal(t, "INFO", rec.Level)
	assert.Equal(t, "tune: decided", rec.Msg)
	assert.Equal(t, "rec", rec.Key)
	assert.Equal(t, "fast", rec.Winner)
	assert.Equal(t, "wall", rec.Timing)
	assert.Equal(t, "winner", rec.Candidates["fast"].Status)
	assert.Positive(t, rec.Candidates["slow"].Score)
	assert.GreaterOrEqual(t, rec.Candidates["slow"].Samples, tune.MinSamples)
	assert.Equal(t, "failed", rec.Candidates["broken"].Status)
	assert.Equal(t, "no", rec.Candidates["broken"].Err)
}
