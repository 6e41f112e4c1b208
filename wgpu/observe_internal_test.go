//go:build cgo

package wgpu

import (
	"bytes"
	"errors"
	"log/slog"
	"os"
	"testing"
)

func TestReportUncapturedGoesToTheDeviceLogger(t *testing.T) {
	var buf bytes.Buffer
	d, err := Open(Options{Logger: slog.New(slog.NewTextHandler(&buf, nil))})
	if errors.Is(err, ErrNoAdapter) && os.Getenv("STREAMGATE_REQUIRE_ADAPTER") != "1" {
		t.Skip(err)
	}
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	d.reportUncaptured(ErrorTypeValidation, "bad")
	want := `level=ERROR msg="wgpu: uncaptured WebGPU error" type=Validation message=bad device=`
	if !bytes.Contains(buf.Bytes(), []byte(want)) {
		t.Errorf("log = %q, want it to contain %q", buf.String(), want)
	}
}
