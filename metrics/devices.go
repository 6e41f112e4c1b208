package metrics

import (
	"strconv"

	"github.com/streamgate/streamgate/wgpu"
)

// readDevices adds the open wgpu devices to into and returns the process's
// count of uncaptured WebGPU errors.
func readDevices(into map[string]Device) (uncaptured uint64) {
	for _, d := range wgpu.Devices() {
		c := d.Stats()
		into[strconv.FormatUint(uint64(d.ServiceID()), 10)] = Device{
			Adapter:           d.Info().Name,
			PipelinesCompiled: c.Compiles,
			PipelinesCached:   c.PipelinesCached,
			BuffersLive:       c.BuffersLive,
			StreamsLive:       c.StreamsLive,
		}
		uncaptured = c.UncapturedErrors
	}
	return uncaptured
}
