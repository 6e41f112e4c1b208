//go:build cgo && !race

package wgpu_test

const raceEnabled = false
