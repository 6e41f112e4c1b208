// Package metrics publishes streamgate's counters through expvar, the
// standard library's: what the launches did per device, what the devices
// hold, the registry's overrides, and the tuners' decisions.
//
// Nothing is published until the program asks, with one call from main:
//
//	metrics.Publish(metrics.Name) // the expvar "streamgate"
//	http.ListenAndServe(addr, nil) // expvar serves /debug/vars on the default mux
//
// Importing streamgate's packages registers nothing. There is nothing to
// register either: every client.Client, wgpu.Device and tune.Tuner of the
// process is counted on its own. Clients are tracked weakly (a client the
// program drops is still counted once collected, so counters never go
// down); devices appear while open; the tuners' counts are process totals.
// [Read] returns the same figures as a [Snapshot], for a program that
// exports them some other way.
//
// # Names
//
// The JSON that expvar serves under "streamgate", and the names a
// Prometheus or OpenTelemetry exporter should give each value (services
// and devices are labelled by service id, service="1"):
//
//	JSON path                               Prometheus / OpenTelemetry name             kind
//	services.<id>.launches_executed         streamgate_launches_executed_total          counter
//	services.<id>.launches_discarded        streamgate_launches_discarded_total         counter
//	services.<id>.launches_failed           streamgate_launches_failed_total            counter
//	services.<id>.kernels_compiled_now      streamgate_kernels_compiled_now_total       counter
//	services.<id>.kernels_queued            streamgate_kernels_queued_total             counter
//	services.<id>.kernels_batch_compiled    streamgate_kernels_batch_compiled_total     counter
//	services.<id>.launches_captured         streamgate_launches_captured_total          counter
//	services.<id>.graph_replays             streamgate_graph_replays_total              counter
//	services.<id>.launches_replayed         streamgate_launches_replayed_total          counter
//	services.<id>.graph_replays_discarded   streamgate_graph_replays_discarded_total    counter
//	devices.<id>.adapter                    label adapter="…" of the device's series
//	devices.<id>.pipelines_compiled         streamgate_device_pipelines_compiled_total  counter
//	devices.<id>.pipelines_cached           streamgate_device_pipelines_cached          gauge
//	devices.<id>.buffers_live               streamgate_device_buffers_live              gauge
//	devices.<id>.streams_live               streamgate_device_streams_live              gauge
//	wgpu_uncaptured_errors                  streamgate_wgpu_uncaptured_errors_total     counter
//	registry.process_mode                   streamgate_process_mode{mode="…"} 1         gauge (info)
//	registry.overrides_live_execute         streamgate_overrides_live{mode="Execute"}   gauge
//	registry.overrides_live_discard         streamgate_overrides_live{mode="Discard"}   gauge
//	registry.overrides_leaked               streamgate_overrides_leaked_total           counter
//	tune.cache_hits                         streamgate_tune_cache_hits_total            counter
//	tune.cache_misses                       streamgate_tune_cache_misses_total          counter
//	tune.tuned                              streamgate_tune_decisions_total             counter
//	tune.tune_errors                        streamgate_tune_errors_total                counter
//
// In OpenTelemetry the same names apply with dots for underscores and
// without the _total suffix (streamgate.launches.executed, a monotonic
// Sum; the gauges are Gauges).
//
// Alerting starts with two of them: streamgate_overrides_leaked_total and
// streamgate_wgpu_uncaptured_errors_total should stay 0, and
// streamgate_device_pipelines_compiled_total should not move once the
// warm-up pass is over.
package metrics
