package cacheopt

import (
	"bytes"
	"log/slog"
	"strings"
	"testing"
)

// TestOf: the last WithLogger wins, nil options are skipped, and a nil
// logger (or none) falls back to the warnings logger, never nil.
func TestOf(t *testing.T) {
	var a, b bytes.Buffer
	la, lb := slog.New(slog.NewTextHandler(&a, nil)), slog.New(slog.NewTextHandler(&b, nil))
	c := Of([]Option{WithLogger(la), nil, WithLogger(lb)})
	c.Log.Warn("hello")
	if a.Len() != 0 || !strings.Contains(b.String(), "hello") {
		t.Fatalf("the last WithLogger did not win: first got %q, last %q", a.String(), b.String())
	}
	for _, opts := range [][]Option{nil, {WithLogger(nil)}} {
		if Of(opts).Log == nil {
			t.Fatalf("Of(%v).Log is nil", opts)
		}
	}
}
