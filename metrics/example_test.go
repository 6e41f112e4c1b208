package metrics_test

import (
	"context"
	"encoding/json"
	"expvar"
	"fmt"
	"io"
	"log"
	"net/http/httptest"
	"strconv"

	"github.com/streamgate/streamgate/client"
	"github.com/streamgate/streamgate/gpu"
	"github.com/streamgate/streamgate/metrics"
	"github.com/streamgate/streamgate/registry"
	"github.com/streamgate/streamgate/streamgatetest"
)

var kernel = gpu.NewKernel("k", "@compute @workgroup_size(1) fn main() {}", "main")

// The metrics over HTTP: a program publishes them once, and expvar's
// handler (on http.DefaultServeMux as /debug/vars, or mounted anywhere)
// serves them as JSON with the program's other expvars.
func ExamplePublish() {
	metrics.Publish(metrics.Name) // once, from main

	reg := registry.New()
	svc := streamgatetest.NewService() // a wgpu.Device in a real program
	c := client.New(svc, client.WithRegistry(reg))
	defer c.Close()
	reg.SetProcessMode(registry.ProcessCompile)
	_ = c.Launch(kernel, [3]uint32{1, 1, 1}) // warm-up: discarded, queued
	reg.SetProcessMode(registry.ProcessExecute)
	for range 3 {
		_ = c.Launch(kernel, [3]uint32{1, 1, 1})
	}
	_ = c.Sync(context.Background())

	srv := httptest.NewServer(expvar.Handler())
	defer srv.Close()
	resp, err := srv.Client().Get(srv.URL + "/debug/vars")
	if err != nil {
		log.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	var vars struct {
		Streamgate metrics.Snapshot `json:"streamgate"`
	}
	if err := json.Unmarshal(body, &vars); err != nil {
		log.Fatal(err)
	}
	svcStats := vars.Streamgate.Services[strconv.FormatUint(uint64(svc.ServiceID()), 10)]
	out, _ := json.MarshalIndent(svcStats, "", "  ")
	fmt.Println(string(out))
	// Output:
	// {
	//   "launches_executed": 3,
	//   "launches_discarded": 1,
	//   "launches_failed": 0,
	//   "kernels_compiled_now": 0,
	//   "kernels_queued": 1,
	//   "kernels_batch_compiled": 1,
	//   "launches_captured": 0,
	//   "graph_replays": 0,
	//   "launches_replayed": 0,
	//   "graph_replays_discarded": 0
	// }
}
