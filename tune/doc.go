// Package tune is streamgate's autotuner: it picks the fastest of several
// candidate kernels for a key (an operation and an input shape class) by
// measuring them, and remembers the winner in a persistent cache so later
// runs — and later processes — pay only a map read. Measurements never
// touch the caller's data unless the caller says they may: an [Op] gives
// either NewInputs, which makes fresh buffers for the measurements to run
// on (the real run then uses the caller's buffers, exactly once), or
// Pure, which declares that running the candidates on the caller's buffers
// is harmless; with neither, [Tuner.Pick] and [Tuner.Run] refuse it
// ([ErrUnsafeOp]). Candidates take their buffers as an argument rather than
// capturing them.
//
// Autotune is why stream modes exist. While the process discards
// (registry.ProcessCompileAndAutotune: a warm-up pass), a [Tuner] measures
// each candidate's launches under a [client.Client.Measure] override, so they
// execute while every other launch of the process is discarded.
//
// # Failures
//
// A candidate that returns an error or panics is marked failed in the
// [Result] (a panic as a [PanicError] with its value and stack); the others
// are still measured. [Tuner.Run] falls back to the next best when the
// winner fails, by error or by panic. A key's in-flight state is always
// cleared, and every goroutine waiting for it gets an answer.
//
// # Nested tuning
//
// A candidate may Pick or Run another key, passing on the context it was
// given: the tuner tracks the keys being tuned by a call chain in that
// context, tunes the nested key inside the first, and returns [ErrCycle]
// when a key's candidate needs that key's own decision, directly or
// through others. Every wait ends when its context does.
//
// # Capture
//
// A tuner meets a capture (client.Client.Capture) as any launch does: a
// decided key's winner launches through the tuner's client and, when that
// is the capturing client, is recorded into the graph. An undecided key is
// measured first: its candidates run on a fork of the capturing client (a
// stream of its own, under a Measure override), outside the graph, and the
// winner is then captured; the capture under a discarding process mode is
// then the whole warm-up pass, tuning included. A winner that fails while
// the client captures is not followed by a fallback (what it launched is
// in the graph): Run returns its error, failing the capture, and the next
// capture runs the next best. Under WithNoStall, a key another chain is
// tuning captures its default candidate.
//
// # Sampling
//
// Each candidate is launched once to warm up (its pipeline compiles), then
// measured in rounds, one sample per surviving candidate per round. Each
// candidate's first sample is dropped (caches, clocks ramping up). A
// candidate gets at least [MinSamples] and at most [MaxSamples] kept
// samples. After [MinSamples] rounds a candidate whose best sample is worse
// than [PruneRatio] times the leader's best is dropped (at least two
// survive), and tuning stops once a round improves no survivor's best by
// more than [StopImprovement].
//
// # Score
//
// A candidate's score is robust to noise and favours steady kernels:
//
//	score = (0.75·min + 0.25·median) · (1 + 0.5·IQR/median)
//
// mostly its best sample (the least disturbed run), some of its median (what
// a typical run costs), penalised by its spread (interquartile range relative
// to the median). The lowest score wins.
//
// # Timing
//
// When the service can time a stream's work with GPU timestamp queries
// ([gpu.GPUTimer]), samples are GPU time; otherwise wall-clock time around a
// sync. Each [Result] says which was used.
//
// # Cache
//
// A [Tuner] remembers decisions in a [Cache]: [NewMemoryCache] for the
// process's life; package tune/sqlitecache's file, which several processes
// may share and which opens read-only when shipped so; package
// tune/rediscache's Redis in front of a local cache, shared by a fleet. They
// are packages of their own, so a program links SQLite or Redis only when it
// asks for them. The file and Redis keep compiled kernels too (LoadKernel,
// StoreKernel: a wgpu.KernelStore). Every cache passes one conformance
// suite, package tune/cachetest, which a new backend imports. Entries are keyed by [CacheKey] (adapter identity, key,
// candidate names), every part kept apart whatever its bytes. [Export] and
// [Import] move entries between machines as versioned JSON lines, so
// identical machines tune once. [ShapeKey] builds keys by shape classes, so
// that shapes that vary (a sequence length) share a tune.
//
// # Serving
//
// Under [WithNoStall], a caller of a key that another call is tuning runs
// the op's default candidate at once instead of waiting, and [Tuner.Pick]
// reports the decision pending. Each measured decision is one Info record
// on the tuner's logger ([WithLogger]).
package tune
