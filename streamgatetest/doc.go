// Package streamgatetest is streamgate's test kit for programs that use it:
//
//   - [Service], an in-memory gpu.Service, for fast tests of code that
//     launches through a client.Client or a tune.Tuner without a GPU;
//   - [OpenDevice], which opens the real WebGPU device for a test (Mesa's
//     lavapipe on a machine without a GPU), skips the test when there is no
//     adapter — or fails it when STREAMGATE_REQUIRE_ADAPTER=1, as CI should
//     set — and closes the device when the test ends;
//   - [CheckRegistry], which fails a test that ends with an override still
//     live, or one the garbage collector had to release (a leak).
//
// For example:
//
//	func TestStep(t *testing.T) {
//		reg := registry.New()
//		streamgatetest.CheckRegistry(t, reg)
//		svc := streamgatetest.NewService()
//		c := client.New(svc, client.WithRegistry(reg))
//		defer c.Close()
//		// ... run the step, then look at svc.Executed("matmul") or c.Stats()
//	}
//
// OpenDevice needs cgo, as package wgpu does.
package streamgatetest
