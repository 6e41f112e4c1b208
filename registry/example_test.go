package registry_test

import (
	"fmt"

	"github.com/streamgate/streamgate/registry"
)

// Overrides of one stream nest: the newest live one decides, and they may be
// released in any order.
func ExampleRegistry_Set() {
	r := registry.New()
	s := registry.ServiceStream{Service: 1, Stream: 7}
	a := r.Set(registry.Execute, s)
	b := r.Set(registry.Discard, s)
	fmt.Println("a, b live:", r.Mode(s, registry.Execute))
	c := r.Set(registry.Execute, s)
	fmt.Println("a, b, c live:", r.Mode(s, registry.Discard))
	b.Release() // the middle one: c still decides
	fmt.Println("a, c live:", r.Mode(s, registry.Discard))
	c.Release()
	c.Release() // a second Release does nothing
	fmt.Println("a live:", r.Mode(s, registry.Discard))
	a.Release()
	fmt.Println("none live:", r.Mode(s, registry.Discard), r.Live(registry.Execute), r.Live(registry.Discard))
	// Output:
	// a, b live: Discard
	// a, b, c live: Execute
	// a, c live: Execute
	// a live: Execute
	// none live: Discard 0 0
}

// The process mode is the default of every stream without an override; an
// autotune measurement opens an Execute override on its own stream only.
func ExampleRegistry_SetProcessMode() {
	r := registry.New()
	mine := registry.ServiceStream{Service: 1, Stream: 1}
	other := registry.ServiceStream{Service: 1, Stream: 2}
	for _, p := range []registry.ProcessMode{registry.ProcessExecute, registry.ProcessCompile, registry.ProcessCompileAndAutotune} {
		r.SetProcessMode(p)
		m := r.Set(registry.Execute, mine) // a measurement
		fmt.Printf("%-18v mine %-7v other %v\n", r.ProcessMode(), r.Resolve(mine), r.Resolve(other))
		m.Release()
	}
	// Output:
	// Execute            mine Execute other Execute
	// Compile            mine Execute other Discard
	// CompileAndAutotune mine Execute other Discard
}

// All lists the live overrides at one instant, each stream's newest first,
// for a debug endpoint.
func ExampleRegistry_All() {
	r := registry.New()
	s := registry.ServiceStream{Service: 1, Stream: 7}
	a := r.Set(registry.Execute, s)
	b := r.Set(registry.Discard, s)
	a.Release()
	c := r.Set(registry.Execute, s)
	defer b.Release()
	defer c.Release()
	for o := range r.All() {
		fmt.Println(o)
	}
	// Output:
	// #2 Execute on 1/7
	// #1 Discard on 1/7
}
