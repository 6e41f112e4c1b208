//go:build race

package naga_test

// raceEnabled: the race detector is on; it makes each compilation of the
// module take seconds.
const raceEnabled = true
