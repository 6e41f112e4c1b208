package bundle_test

import (
	_ "embed"
	"fmt"
	"log"

	"github.com/streamgate/streamgate/tune"
	"github.com/streamgate/streamgate/tune/bundle"
)

// exampleBundle is a bundle embedded in the program, as a program embeds
// the one its CI made with streamgate bundle export; TestExampleBundle
// writes this one (go test -run TestExampleBundle -update).
//
//go:embed testdata/example.bundle
var exampleBundle []byte

// A program that embeds a bundle starts warm on a machine whose caches
// are empty: the tuner finds the bundle's winners behind its own cache,
// and (with cgo) the lowering finds the bundle's kernels.
func Example() {
	b, err := bundle.Load(exampleBundle)
	if err != nil {
		log.Fatal(err) // a damaged, truncated or foreign bundle
	}
	fmt.Printf("made by %s for %q: %d tune entries, %d kernels\n", b.MadeBy(), b.Devices(), b.TuneEntries(), b.Kernels())

	// In a program, the cache in front is the machine's own (package
	// tune/sqlitecache), and the kernels go behind the process's store:
	//
	//	wgpu.SetKernelStore(b.KernelStore(wgpu.CurrentKernelStore()))
	//	tu := tune.New(c, tune.WithCache(b.TuneCache(local)))
	cache := b.TuneCache(tune.NewMemoryCache())
	defer cache.Close()
	e, ok := cache.Load(tune.CacheKey{Device: "llvmpipe (LLVM 15.0.6, 256 bits)|Vulkan", Key: "matmul/64x64x32", Candidates: "0123"})
	fmt.Println("matmul/64x64x32:", e.Ranking[0], ok)
	// Output:
	// made by TestExampleBundle for ["SwiftShader Device|Vulkan" "llvmpipe (LLVM 15.0.6, 256 bits)|Vulkan"]: 3 tune entries, 5 kernels
	// matmul/64x64x32: tiled-8 true
}
