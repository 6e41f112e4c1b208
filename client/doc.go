// Package client is the launch path of streamgate: a [Client] is bound to
// one service (a gpu.Service, a device) and one stream, and every launch
// asks the registry, with one lock-free read, whether that stream executes
// or discards.
//
// A step that repeats is captured once ([Client.Capture]) into a [Graph]
// and replayed ([Client.Replay]): one mode read per replay, and, when it
// executes, the whole graph handed to the service as one batch from the
// pipelines and bind groups made at capture.
//
// # Close and a racing call
//
// [Client.Close] may race any call on the client, its graphs and its
// buffers. Each racing call either did its work before Close took the
// stream and returns nil (or its own error) — a launch or replay so
// recorded runs: Close submits it — or did nothing and returns
// [ErrClosed]. Under [PerClient] the service refuses to record on the
// stream once Close closed it (gpu.ErrStreamClosed, which the client
// returns as ErrClosed), so no stream outlives its client; under [Single]
// the shared stream is the service's and stays, and a launch recorded
// after Close's flush runs at the stream's next flush. [Graph.Release]
// racing a replay: the replay recorded before runs, a later one returns
// an error. A [Graph] of a closed client replays no more (ErrClosed). A
// service's own Close (wgpu's Device.Close) racing any call makes it
// return the service's closed error (wgpu.ErrClosed); a buffer released
// while a launch binds it fails that launch with an error naming the
// binding, and submits first what was recorded before.
// TestLifecycleModel checks all of it on a real device.
package client
