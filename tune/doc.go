// Package tune is streamgate's autotuner: it picks the fastest of several
// candidate kernels for a key (an operation and an input shape class) by
// measuring them, and remembers the winner in a persistent cache so later
// runs — and later processes — pay only a map read.
//
// Autotune is why stream modes exist. While the process discards
// (registry.ProcessCompileAndAutotune: a warm-up pass), a [Tuner] measures
// each candidate's launches under a [client.Client.Measure] override, so they
// execute while every other launch of the process is discarded.
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
// ([GPUTimer]), samples are GPU time; otherwise wall-clock time around a
// sync. Each [Result] says which was used.
package tune
