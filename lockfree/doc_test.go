package lockfree_test

import (
	"fmt"

	"github.com/streamgate/streamgate/lockfree"
)

func ExampleValue_Update() {
	type config struct{ workers int }
	var v lockfree.Value[config]
	v.Store(&config{workers: 1})
	v.Update(func(old *config) *config {
		c := *old // copy: never modify old
		c.workers++
		return &c
	})
	fmt.Println(v.Load().workers)
	// Output: 2
}
