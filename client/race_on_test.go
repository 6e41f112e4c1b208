//go:build (cgo || (js && wasm)) && race

package client_test

// raceEnabled: the race detector is on; long tests run shorter.
const raceEnabled = true
