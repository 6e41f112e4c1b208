//go:build race

// Package race tells tests whether the race detector is on (its shadow
// memory makes a process's RSS meaningless for a soak).
package race

// Enabled: the race detector is on.
const Enabled = true
