package client_test

import (
	"context"
	"testing"

	"github.com/streamgate/streamgate/client"
	"github.com/streamgate/streamgate/gpu"
	"github.com/streamgate/streamgate/registry"
	"github.com/streamgate/streamgate/streamgatetest"
)

// BenchmarkDiscardedLaunch is the launch path of a warm-up pass once every
// kernel is compiled: the mode read plus the compile-cache hit.
func BenchmarkDiscardedLaunch(b *testing.B) {
	for _, tc := range []struct {
		name    string
		measure bool // a measurement open on another client: the indexed path
	}{{"overrides=0", false}, {"overrides=1", true}} {
		b.Run(tc.name, func(b *testing.B) {
			r := registry.New()
			r.SetProcessMode(registry.ProcessCompile)
			svc := streamgatetest.NewService()
			if err := svc.Compile(context.Background(), kA); err != nil {
				b.Fatal(err)
			}
			c := client.New(svc, client.WithRegistry(r))
			if tc.measure {
				defer c.Fork().Measure().Release()
			}
			buf := svc.NewBuffer(4)
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if err := c.Launch(kA, [3]uint32{1, 1, 1}, buf); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "launches/s")
		})
	}
}

// launchlessService is a service whose Launch records nothing, so that a
// benchmark of an executed launch times the client's own work.
type launchlessService struct{ *streamgatetest.Service }

func (launchlessService) Launch(gpu.StreamID, *gpu.Kernel, [3]uint32, ...gpu.Buffer) error {
	return nil
}

// BenchmarkExecutedLaunch is the client's part of an executed launch: the
// mode read, the bindings handed to the service through the client's
// scratch array, and the count; the service's Launch does nothing.
func BenchmarkExecutedLaunch(b *testing.B) {
	r := registry.New()
	r.SetProcessMode(registry.ProcessExecute)
	svc := launchlessService{streamgatetest.NewService()}
	c := client.New(svc, client.WithRegistry(r))
	defer c.Close()
	buf := svc.NewBuffer(4)
	b.ReportAllocs()
	for b.Loop() {
		if err := c.Launch(kA, [3]uint32{1, 1, 1}, buf); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "launches/s")
}
