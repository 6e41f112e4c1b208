package page

// The states of a finished page: Result.State, and the value of
// document.body.dataset.done once the page has finished.
const (
	StateDone      = "done"       // the demo ran; CPUCheck says whether its check passed
	StateNoWebGPU  = "no-webgpu"  // navigator.gpu is missing
	StateNoAdapter = "no-adapter" // navigator.gpu.requestAdapter gave none
	StateError     = "error"      // anything else went wrong; Error says what
)

// The tune caches of the page: Result.Cache.
const (
	CacheStorage = "localStorage" // tune/webcache: kept across page loads
	CacheMemory  = "memory"       // this page load's only
)

// ResultID is the id of the <script type="application/json"> element the
// page writes its Result into when it finishes.
const ResultID = "result"

// Result is what the page measured, published as JSON when it finishes;
// its field names are stable. The figures mean what streamgate
// generate's -json fields of the same names mean.
type Result struct {
	State   string `json:"state"`   // one of the State constants
	Error   string `json:"error"`   // what went wrong, for the states other than StateDone
	Hint    string `json:"hint"`    // what to do about it (which browser flag), if known
	Adapter string `json:"adapter"` // the adapter, on one line
	// Isolated is the page's crossOriginIsolated: the browser's clock
	// (performance.now, which Go's time.Since reads) then has finer steps
	// (5 µs in Chromium, else 100 µs).
	Isolated bool `json:"cross_origin_isolated"`

	Layers    int      `json:"layers"`
	Width     int      `json:"width"`
	Heads     int      `json:"heads"`
	Vocab     int      `json:"vocab"`
	MaxSeq    int      `json:"max_seq"`
	Prompt    []uint32 `json:"prompt"`
	Tokens    int      `json:"tokens"`    // to generate
	Generated []uint32 `json:"generated"` // the warm run's tokens

	LaunchesPrefill     int     `json:"launches_prefill"`
	LaunchesPerToken    int     `json:"launches_per_token"`
	LaunchesCaptured    uint64  `json:"launches_captured"`    // by the warm-up, none executed
	MeasurementLaunches uint64  `json:"measurement_launches"` // run by the tuner's measurements
	LaunchesExecuted    uint64  `json:"launches_executed"`    // by the warm generation's replays
	Replays             uint64  `json:"replays"`
	WarmupMs            float64 `json:"warmup_ms"`       // capture, compile, tune, sync
	WarmupCompiles      int64   `json:"warmup_compiles"` // pipelines the warm-up compiled
	Primed              int     `json:"primed"`          // winners dispatched once with 0 workgroups
	PrimeMs             float64 `json:"prime_ms"`
	Cache               string  `json:"cache"`               // where the tune cache is: CacheStorage or CacheMemory
	Keys                int     `json:"keys"`                // tunable ops
	TunedKeys           int     `json:"tuned_keys"`          // measured in this run
	CacheHits           int     `json:"cache_hits"`          // found in the tune cache
	BundleTuneEntries   int     `json:"bundle_tune_entries"` // in the bundle embedded in the page's program, behind the tune cache
	Bundle              string  `json:"bundle,omitempty"`    // with the query's export: a bundle of the tune cache's winners (package tune/bundle), base64
	RealPassCompiles    int64   `json:"real_pass_compiles"`
	CompilesAvoided     int64   `json:"compiles_avoided"`                  // compiled in the warm-up, not during the generation
	BuffersCreated      int64   `json:"buffers_created_after_first_token"` // GPU buffers, staging included

	CPUCheck    bool    `json:"cpu_check"`     // every token is the float64 reference's, every logit within tolerance
	MaxAbsError float64 `json:"max_abs_error"` // over every position's logits

	TTFTMsWarm    float64   `json:"ttft_ms_warm"`
	TokenMs       []float64 `json:"token_ms"` // each warm decode step
	TokenMsMedian float64   `json:"token_ms_median"`
	TokenMsP99    float64   `json:"token_ms_p99"`
	TokensPerS    float64   `json:"tokens_per_s"`

	Cold            bool      `json:"cold"`           // the cold figures were measured
	ColdCPUCheck    bool      `json:"cold_cpu_check"` // the cold run's tokens checked likewise
	TTFTMsCold      float64   `json:"ttft_ms_cold"`   // a fresh device, no warm-up
	ColdCompiles    int64     `json:"cold_compiles"`  // pipelines compiled before its first token
	ColdTokenMs     []float64 `json:"cold_token_ms"`  // its decode steps
	ColdTokenMsMed  float64   `json:"cold_token_ms_median"`
	ColdFirstStepMs float64   `json:"cold_first_step_ms"` // its first decode step (compiles the decode's other pipelines)
}
