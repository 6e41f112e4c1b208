//go:build !(js && wasm)

// Desktop only: it times naga's lowering, which the js build does not run.

package wgpu

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"
)

// TestLoweringTimeout: a lowering past loweringTimeout is stopped and
// reported as a Limit error naming LoweringTimeout, and nothing of it is
// cached: the same source checks once the bound is back.
func TestLoweringTimeout(t *testing.T) {
	var b strings.Builder
	b.WriteString("@group(0) @binding(0) var<storage, read_write> out: array<f32>;\n@compute @workgroup_size(1) fn main() {\n  var s = 1.0;\n")
	b.WriteString(strings.Repeat("  s = s + 1.0 + 1.0 + 1.0 + 1.0;\n", 300))
	b.WriteString("  out[0] = s;\n}\n// TestLoweringTimeout\n")
	src := b.String()
	// No kernel cache: another run's entry for src would answer without a
	// lowering to time out.
	defer SetKernelStore(SetKernelStore(nil))
	if err := lowerReady(); err != nil {
		t.Fatal(err)
	}
	loweringTimeout.Store(int64(time.Millisecond))
	_, err := CheckModule(context.Background(), src, nil, Limits{})
	loweringTimeout.Store(int64(LoweringTimeout))
	var we *Error
	if !errors.As(err, &we) || we.Type != ErrorTypeLimit || !strings.Contains(err.Error(), "LoweringTimeout") {
		t.Fatalf("CheckModule(past the lowering timeout) = %v, want a Limit error naming LoweringTimeout", err)
	}
	if _, err := CheckModule(context.Background(), src, nil, Limits{}); err != nil {
		t.Errorf("CheckModule(same source, timeout restored) = %v, want nil", err)
	}
	// The caller's own cancellation stays the caller's error.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := CheckModule(ctx, src+"// cancelled\n", nil, Limits{}); !errors.Is(err, context.Canceled) {
		t.Errorf("CheckModule(cancelled ctx) = %v, want context.Canceled", err)
	}
}
