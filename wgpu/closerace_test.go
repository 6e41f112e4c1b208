//go:build cgo

package wgpu_test

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/streamgate/streamgate/gpu"
	"github.com/streamgate/streamgate/wgpu"
)

// TestCloseRacesEverything closes a device while goroutines launch, flush,
// sync with contexts that are cancelled mid-wait, read back (into their own
// slices and not), write, copy, recycle and release buffers. Every call must
// return nil or an error (ErrClosed once Close has begun, ctx.Err() for a
// cancelled wait): no panic, no crash, no hang, no leak (goleak and the
// status-word count check the rest).
func TestCloseRacesEverything(t *testing.T) {
	rounds := 8
	if testing.Short() {
		rounds = 2
	}
	for round := range rounds {
		d, err := wgpu.Open(wgpu.Options{})
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		var wg sync.WaitGroup
		unexpected := make(chan error, 64)
		check := func(op string, err error) {
			if err == nil || errors.Is(err, wgpu.ErrClosed) || errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
				return
			}
			var le *gpu.LaunchError
			if errors.As(err, &le) {
				return // a batch cut by Close
			}
			select {
			case unexpected <- errors.Join(errors.New(op), err):
			default:
			}
		}
		for g := range 4 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				stream := gpu.StreamID(100 + g)
				x, err := d.NewBuffer(256, 0)
				if err != nil {
					check("NewBuffer", err)
					return
				}
				dst := make([]uint32, 64)
				for i := 0; ; i++ {
					if ctx.Err() != nil {
						return
					}
					check("Launch", d.Launch(stream, incKernel, [3]uint32{1, 1, 1}, x))
					switch i % 6 {
					case 0:
						check("Flush", d.Flush(stream))
					case 1:
						check("Sync", d.Sync(newCancelMidWait(), stream))
					case 2:
						check("ReadInto", wgpu.ReadInto(newCancelMidWait(), x, 0, dst))
					case 3:
						_, err := wgpu.Read[byte](ctx, x, 0, int(x.Size()))
						check("Read", err)
					case 4:
						check("Write", wgpu.Write(x, 0, dst[:4]))
					case 5:
						tmp, err := d.TempBuffer(256, 0)
						check("TempBuffer", err)
						if err == nil {
							check("CopyTo", x.CopyTo(tmp, 0, 0, 256))
							tmp.Recycle()
						}
					}
					if d.Compiled(incKernel) == false && i > 10 {
						return // closed
					}
				}
			}()
		}
		time.Sleep(time.Duration(5+round*7) * time.Millisecond)
		if err := d.Close(); err != nil {
			t.Errorf("Close = %v", err)
		}
		cancel()
		wg.Wait()
		close(unexpected)
		for err := range unexpected {
			t.Errorf("round %d: unexpected error racing Close: %v", round, err)
		}
	}
}
