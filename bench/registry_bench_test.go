package bench_test

import (
	"testing"

	"github.com/streamgate/streamgate/bench"
)

// The bodies live in bench.RegistrySuite, so that the streamgate bench
// command runs the same code; these wrappers give go test -bench (and
// benchstat -col /impl) the same names. Run them with -cpu 1,2,4,8 for 1, 2,
// 4 and 8 parallel readers.

var registrySuite = bench.RegistrySuite()

func BenchmarkModeFastPath(b *testing.B)        { bench.Run(b, registrySuite, "ModeFastPath") }
func BenchmarkModeFastPathInlined(b *testing.B) { bench.Run(b, registrySuite, "ModeFastPathInlined") }
func BenchmarkMode(b *testing.B)                { bench.Run(b, registrySuite, "Mode") }
func BenchmarkModeChurn(b *testing.B)           { bench.Run(b, registrySuite, "ModeChurn") }
func BenchmarkSetRelease(b *testing.B)          { bench.Run(b, registrySuite, "SetRelease") }
func BenchmarkOpenRelease(b *testing.B)         { bench.Run(b, registrySuite, "OpenRelease") }
func BenchmarkWriters(b *testing.B)             { bench.Run(b, registrySuite, "Writers") }
