//go:build cgo || (js && wasm)

package client_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/streamgate/streamgate/client"
	"github.com/streamgate/streamgate/gpu"
	"github.com/streamgate/streamgate/registry"
	"github.com/streamgate/streamgate/streamgatetest"
	"github.com/streamgate/streamgate/wgpu"
)

// TestDiscardedLaunchCompilesAsync: under CompileAndAutotune a discarded
// launch returns its kernel's check errors at once, as before; its
// compile's driver half finishes by the next Sync, each kernel counted
// once in CompiledNow and built once, with 1 worker and with 3.
func TestDiscardedLaunchCompilesAsync(t *testing.T) {
	for _, workers := range []int{1, 3} {
		t.Run(fmt.Sprintf("workers=%d", workers), func(t *testing.T) {
			d := streamgatetest.OpenDevice(t, wgpu.Options{CompileWorkers: workers})
			r := registry.New()
			r.SetProcessMode(registry.ProcessCompileAndAutotune)
			c := client.New(d, client.WithRegistry(r))
			defer c.Close()
			buf := newCounter(t, d)
			var ks []*gpu.Kernel
			for i := range 6 {
				src := strings.Replace(counterWGSL, "1u);", fmt.Sprintf("%du);", i+1), 1)
				ks = append(ks, gpu.NewKernel(fmt.Sprintf("k%d", i), src, "main"))
			}
			bad := gpu.NewKernel("bad", "fn main( {", "main")
			for range 3 { // each kernel launched three times before the Sync
				for _, k := range ks {
					require.NoError(t, c.Launch(k, [3]uint32{1, 1, 1}, buf))
				}
				err := c.Launch(bad, [3]uint32{1, 1, 1}, buf)
				require.Error(t, err, "a kernel that fails its checks fails its discarded launch")
				assert.Contains(t, err.Error(), "bad(main)")
			}
			require.NoError(t, c.Sync(context.Background()))
			for _, k := range ks {
				assert.True(t, d.Compiled(k), "%s compiled by the Sync", k)
			}
			st := c.Stats()
			assert.Equal(t, uint64(len(ks)), st.CompiledNow)
			assert.Equal(t, uint64(3*len(ks)+3), st.Discarded)
			assert.Equal(t, int64(len(ks)+3), d.Stats().Compiles, "each kernel built once, the bad one at each launch")
			assert.Equal(t, uint32(0), gpuCount(t, c, buf), "nothing executed")
		})
	}
}
