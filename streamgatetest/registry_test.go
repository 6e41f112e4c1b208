package streamgatetest_test

import (
	"runtime"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/streamgate/streamgate/client"
	"github.com/streamgate/streamgate/registry"
	"github.com/streamgate/streamgate/streamgatetest"
)

func TestCheckRegistryPassesAGoodTest(t *testing.T) {
	reg := registry.New()
	r := run(t, func(tb testing.TB) {
		streamgatetest.CheckRegistry(tb, reg)
		c := client.New(streamgatetest.NewService(), client.WithRegistry(reg))
		defer c.Close()
		o := c.Measure()
		defer o.Release()
	})
	assert.False(t, r.Failed(), "errors: %q", r.errors)
}

func TestCheckRegistryFailsALiveOverride(t *testing.T) {
	reg := registry.New()
	var o *registry.Override
	r := run(t, func(tb testing.TB) {
		streamgatetest.CheckRegistry(tb, reg)
		c := client.New(streamgatetest.NewService(), client.WithRegistry(reg))
		o = c.Measure() // never released in the test
	})
	require.True(t, r.Failed())
	require.Len(t, r.errors, 1)
	assert.Contains(t, r.errors[0], "the test ended with 1 live overrides (Execute 1, Discard 0)")
	o.Release()
}

func TestCheckRegistryFailsALeakedOverride(t *testing.T) {
	reg := registry.New()
	s := registry.ServiceStream{Service: 1, Stream: 1}
	r := run(t, func(tb testing.TB) {
		streamgatetest.CheckRegistry(tb, reg)
		func() { reg.Set(registry.Execute, s) }() // dropped, never released
		deadline := time.Now().Add(10 * time.Second)
		for reg.Leaked() == 0 && time.Now().Before(deadline) {
			runtime.GC()
			time.Sleep(time.Millisecond)
		}
		require.Equal(t, uint64(1), reg.Leaked())
	})
	require.True(t, r.Failed())
	require.Len(t, r.errors, 1)
	assert.Contains(t, r.errors[0], "1 overrides leaked during the test")
}

func TestCheckRegistryCountsOnlyItsTestsLeaks(t *testing.T) {
	reg := registry.New()
	func() { reg.Set(registry.Discard, registry.ServiceStream{Service: 1, Stream: 2}) }()
	deadline := time.Now().Add(10 * time.Second)
	for reg.Leaked() == 0 && time.Now().Before(deadline) {
		runtime.GC()
		time.Sleep(time.Millisecond)
	}
	require.Equal(t, uint64(1), reg.Leaked())
	r := run(t, func(tb testing.TB) { streamgatetest.CheckRegistry(tb, reg) })
	assert.False(t, r.Failed(), "a leak before the test is not the test's: %q", r.errors)
}
