package fuzz

import (
	"testing"

	"github.com/anishathalye/porcupine"

	"github.com/streamgate/streamgate/registry"
)

// TestRacingReleasesLinearizable lets goroutines release one override at
// once and checks that the histories are linearizable. It failed while a
// Release that lost the race returned before the override was gone (see
// TestLosingReleaseReturnsAfterRemoval in package registry, which replays
// it deterministically).
func TestRacingReleasesLinearizable(t *testing.T) {
	runs := 20_000
	if testing.Short() || raceEnabled {
		runs = 2_000
	}
	p := program{
		{set(0, E, s11), rel(0), live(E), mode(s11, D)},
		{relShared(0), live(E), mode(s11, D), live(E)},
		{relShared(0), mode(s11, D), live(E), mode(s11, D)},
		{relShared(0), live(E), mode(s11, D), live(E)},
	}
	for i := range runs {
		h := run(wrap(registry.New()), p)
		if res := checkHistory(h, checkTimeout); res != porcupine.Ok {
			t.Fatalf("run %d: porcupine said %q\n%v", i, res, h)
		}
	}
}
