//go:build !race

package naga_test

const raceEnabled = false
