//go:build !race

package wgpu_test

const raceEnabled = false
