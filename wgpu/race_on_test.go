//go:build cgo && race

package wgpu_test

// raceEnabled: the race detector is on (its shadow memory makes RSS
// meaningless for the soak).
const raceEnabled = true
