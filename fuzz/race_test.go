//go:build race

package fuzz

// raceEnabled is whether the race detector is on: it slows the registry down
// tenfold or more, so the long tests scale down under it.
const raceEnabled = true
