//go:build cgo || (js && wasm)

package metrics_test

import (
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/streamgate/streamgate/metrics"
	"github.com/streamgate/streamgate/streamgatetest"
)

func TestReadDevices(t *testing.T) {
	d := streamgatetest.OpenDevice(t)
	if _, err := d.NewBuffer(16, 0); err != nil {
		t.Fatal(err)
	}
	id := strconv.FormatUint(uint64(d.ServiceID()), 10)
	got, ok := metrics.Read().Devices[id]
	assert.True(t, ok, "an open device is listed")
	assert.Equal(t, metrics.Device{Adapter: d.Info().Name, BuffersLive: 1}, got)
	d.Close()
	_, ok = metrics.Read().Devices[id]
	assert.False(t, ok, "a closed device is not")
}
