package wgpu_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/streamgate/streamgate/wgpu"
)

func TestErrorFormatAndIs(t *testing.T) {
	tests := []struct {
		err       *wgpu.Error
		text      string
		closed    bool
		noAdapter bool
	}{
		{&wgpu.Error{Op: "Compile", Type: wgpu.ErrorTypeValidation, Message: "bad"}, "wgpu: Compile: Validation: bad", false, false},
		{&wgpu.Error{Op: "Launch", Type: wgpu.ErrorTypeClosed, Message: "device is closed"}, "wgpu: Launch: Closed: device is closed", true, false},
		{&wgpu.Error{Op: "Open", Type: wgpu.ErrorTypeNoAdapter}, "wgpu: Open: NoAdapter", false, true},
		{wgpu.ErrClosed, "wgpu: Closed: device is closed", true, false},
	}
	for _, tc := range tests {
		t.Run(tc.text, func(t *testing.T) {
			if got := tc.err.Error(); got != tc.text {
				t.Errorf("Error() = %q, want %q", got, tc.text)
			}
			wrapped := fmt.Errorf("outer: %w", tc.err)
			if got := errors.Is(wrapped, wgpu.ErrClosed); got != tc.closed {
				t.Errorf("errors.Is(ErrClosed) = %v, want %v", got, tc.closed)
			}
			if got := errors.Is(wrapped, wgpu.ErrNoAdapter); got != tc.noAdapter {
				t.Errorf("errors.Is(ErrNoAdapter) = %v, want %v", got, tc.noAdapter)
			}
			// A non-sentinel *Error of the same type does not match.
			if errors.Is(tc.err, &wgpu.Error{Type: tc.err.Type}) && tc.err != wgpu.ErrClosed {
				t.Errorf("errors.Is matched a non-sentinel target")
			}
		})
	}
}
