// Package client is the launch path of streamgate: a [Client] is bound to
// one service (a gpu.Service, a device) and one stream, and every launch
// asks the registry, with one lock-free read, whether that stream executes
// or discards.
//
// A step that repeats is captured once ([Client.Capture]) into a [Graph]
// and replayed ([Client.Replay]): one mode read per replay, and, when it
// executes, the whole graph handed to the service as one batch from the
// pipelines and bind groups made at capture.
package client
