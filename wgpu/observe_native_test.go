//go:build cgo

// Desktop only: wgpu-native's own log (a browser keeps its driver's
// messages in its console).

package wgpu_test

import (
	"bytes"
	"log/slog"
	"sync"
	"testing"

	"github.com/streamgate/streamgate/wgpu"
)

func TestSetLoggerGetsTheDriverLog(t *testing.T) {
	var buf syncBuffer
	wgpu.SetLogger(slog.New(slog.NewTextHandler(&buf, &slog.HandlerOptions{Level: slog.LevelDebug - 4})))
	wgpu.SetLogLevel(wgpu.LogInfo)
	defer func() {
		wgpu.SetLogLevel(wgpu.LogError)
		wgpu.SetLogger(nil)
	}()
	openTestDevice(t).Close()
	if !bytes.Contains([]byte(buf.String()), []byte("component=wgpu-native")) {
		t.Errorf("the driver's log at Info has no message from opening a device: %q", buf.String())
	}
}

// syncBuffer is a bytes.Buffer safe for the driver's threads.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}
