package metrics

import (
	"encoding/json"
	"expvar"
	"strconv"
	"sync"

	"github.com/streamgate/streamgate/client"
	"github.com/streamgate/streamgate/registry"
	"github.com/streamgate/streamgate/tune"
)

// Name is the expvar name the examples and the command publish under.
const Name = "streamgate"

// Snapshot is the process's streamgate metrics at one reading. Its JSON
// form is what [Publish] serves; the field names are stable.
type Snapshot struct {
	// Services holds the launch counts of every service (device) any
	// client was bound to, summed over its clients, keyed by service id
	// in decimal.
	Services map[string]Service `json:"services"`
	// Devices holds the open wgpu devices, keyed by service id in decimal
	// (empty in a build without a device: no cgo and not a browser).
	Devices map[string]Device `json:"devices"`
	// UncapturedErrors counts the WebGPU errors that escaped every error
	// scope, on any device of the process: each is a bug.
	UncapturedErrors uint64 `json:"wgpu_uncaptured_errors"`
	// Registry is the registry's state.
	Registry Registry `json:"registry"`
	// Tune is the counts of every tuner of the process.
	Tune Tune `json:"tune"`
}

// Service is client.Stats summed over a service's clients. Every field only
// grows.
type Service struct {
	LaunchesExecuted     uint64 `json:"launches_executed"`
	LaunchesDiscarded    uint64 `json:"launches_discarded"`
	LaunchesFailed       uint64 `json:"launches_failed"`
	KernelsCompiledNow   uint64 `json:"kernels_compiled_now"`
	KernelsQueued        uint64 `json:"kernels_queued"`
	KernelsBatchCompiled uint64 `json:"kernels_batch_compiled"`
	LaunchesCaptured     uint64 `json:"launches_captured"`       // recorded into graphs (client.Capture)
	GraphReplays         uint64 `json:"graph_replays"`           // replays that executed
	LaunchesReplayed     uint64 `json:"launches_replayed"`       // their launches, also in launches_executed
	GraphReplaysDropped  uint64 `json:"graph_replays_discarded"` // replays discarded (their launches in launches_discarded)
}

// Device is what an open wgpu device holds and has done (wgpu.Stats).
type Device struct {
	Adapter           string `json:"adapter"`            // the adapter's name
	PipelinesCompiled int64  `json:"pipelines_compiled"` // a counter
	PipelinesCached   int    `json:"pipelines_cached"`   // a gauge
	BuffersLive       int    `json:"buffers_live"`       // a gauge
	StreamsLive       int    `json:"streams_live"`       // a gauge
}

// Registry is a registry's process mode and overrides.
type Registry struct {
	ProcessMode          string `json:"process_mode"`           // "Execute", "Compile" or "CompileAndAutotune"
	OverridesLiveExecute int    `json:"overrides_live_execute"` // a gauge
	OverridesLiveDiscard int    `json:"overrides_live_discard"` // a gauge
	OverridesLeaked      uint64 `json:"overrides_leaked"`       // a counter: each is a bug
}

// Tune is tune.TotalStats: every field only grows.
type Tune struct {
	CacheHits   uint64 `json:"cache_hits"`
	CacheMisses uint64 `json:"cache_misses"`
	Tuned       uint64 `json:"tuned"`
	TuneErrors  uint64 `json:"tune_errors"`
}

// An Option configures [Read] and [Publish].
type Option interface{ apply(*config) }

type config struct {
	reg *registry.Registry
}

type optionFunc func(*config)

func (f optionFunc) apply(c *config) { f(c) }

// WithRegistry reports r's overrides rather than [registry.Default]'s.
func WithRegistry(r *registry.Registry) Option {
	if r == nil {
		panic("metrics: WithRegistry(nil)")
	}
	return optionFunc(func(c *config) { c.reg = r })
}

func newConfig(opts []Option) config {
	cfg := config{reg: registry.Default}
	for _, o := range opts {
		o.apply(&cfg)
	}
	return cfg
}

// Read returns the metrics now. It is safe for concurrent use; it takes
// the process-wide client and device locks briefly, never a lock of the
// launch path, and the counts are not read at one instant.
func Read(opts ...Option) Snapshot {
	return read(newConfig(opts))
}

func read(cfg config) Snapshot {
	s := Snapshot{Services: map[string]Service{}, Devices: map[string]Device{}}
	for id, st := range client.ServiceStats() {
		s.Services[strconv.FormatUint(uint64(id), 10)] = Service{
			LaunchesExecuted:     st.Executed,
			LaunchesDiscarded:    st.Discarded,
			LaunchesFailed:       st.Failed,
			KernelsCompiledNow:   st.CompiledNow,
			KernelsQueued:        st.Queued,
			KernelsBatchCompiled: st.BatchCompiled,
			LaunchesCaptured:     st.Captured,
			GraphReplays:         st.Replays,
			LaunchesReplayed:     st.ReplayedLaunches,
			GraphReplaysDropped:  st.DiscardedReplays,
		}
	}
	s.UncapturedErrors = readDevices(s.Devices)
	s.Registry = Registry{
		ProcessMode:          cfg.reg.ProcessMode().String(),
		OverridesLiveExecute: cfg.reg.Live(registry.Execute),
		OverridesLiveDiscard: cfg.reg.Live(registry.Discard),
		OverridesLeaked:      cfg.reg.Leaked(),
	}
	t := tune.TotalStats()
	s.Tune = Tune{CacheHits: t.CacheHits, CacheMisses: t.CacheMisses, Tuned: t.Tuned, TuneErrors: t.TuneErrors}
	return s
}

// String returns s as JSON, as expvar shows it.
func (s Snapshot) String() string {
	b, err := json.Marshal(s)
	if err != nil {
		panic("metrics: " + err.Error()) // plain structs and maps: cannot fail
	}
	return string(b)
}

// Publish publishes the process's streamgate metrics as the expvar name
// (conventionally [Name], "streamgate") and returns the published Var:
// every read of it — /debug/vars, expvar.Get(name).String() — is a fresh
// [Read]. Calling it again with the same name returns the Var the first
// call published (its options stay); it panics if another package has
// published name, as expvar.Publish does.
//
// Nothing is published until a program calls Publish: importing streamgate's
// packages registers no expvar.
func Publish(name string, opts ...Option) expvar.Var {
	publishedMu.Lock()
	defer publishedMu.Unlock()
	if v, ok := published[name]; ok {
		return v
	}
	cfg := newConfig(opts)
	v := expvar.Func(func() any { return read(cfg) })
	expvar.Publish(name, v)
	published[name] = v
	return v
}

// published are the Vars Publish published, by name.
var (
	publishedMu sync.Mutex
	published   = map[string]expvar.Var{}
)
