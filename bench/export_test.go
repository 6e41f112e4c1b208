package bench

// Test-only names for the external tests: impl_test.go checks every
// implementation against the sequential model, and the Benchmark wrappers
// run the suites' cases under go test.

type (
	Impl        = impl
	Handle      = handle
	AtomicInt64 = atomicInt64
)

var (
	Impls = impls
	Run   = runCases
)
