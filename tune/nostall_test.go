package tune_test

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/streamgate/streamgate/client"
	"github.com/streamgate/streamgate/gpu"
	"github.com/streamgate/streamgate/tune"
)

// gatedOp is an op whose tune blocks in NewInputs until release is closed;
// started is closed when it does. Each candidate counts its runs.
func gatedOp(key string, started, release chan struct{}, runs map[string]*atomic.Int64) tune.Op {
	var once sync.Once
	cand := func(name string) tune.Candidate {
		runs[name] = new(atomic.Int64)
		return tune.Candidate{Name: name, Run: func(ctx context.Context, c *client.Client, _ []gpu.Buffer) error {
			runs[name].Add(1)
			return c.Launch(kernel, [3]uint32{1, 1, 1})
		}}
	}
	return tune.Op{Key: key, Candidates: []tune.Candidate{cand("first"), cand("second")},
		NewInputs: func(ctx context.Context) ([]gpu.Buffer, func(), error) {
			once.Do(func() { close(started) })
			select {
			case <-release:
			case <-ctx.Done():
				return nil, nil, ctx.Err()
			}
			return nil, nil, nil
		}}
}

// TestNoStallRunsDefaultWhileTuning: under WithNoStall, while one caller
// tunes a key, the others run the default candidate at once and Pick says
// pending; without it they wait for the tune.
func TestNoStallRunsDefaultWhileTuning(t *testing.T) {
	for _, tc := range []struct {
		name    string
		def     string // Op.Default
		wantRan string
	}{
		{name: "first candidate", wantRan: "first"},
		{name: "named default", def: "second", wantRan: "second"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, c := setup(t)
			tu := tune.New(c, tune.WithDevice("test"), tune.WithNoStall())
			started, release := make(chan struct{}), make(chan struct{})
			runs := map[string]*atomic.Int64{}
			op := gatedOp("k", started, release, runs)
			op.Default = tc.def
			tuned := make(chan error, 1)
			go func() { _, err := tu.Run(deadline(t), op); tuned <- err }()
			<-started

			var wg sync.WaitGroup
			for range 8 {
				wg.Add(1)
				go func() {
					defer wg.Done()
					for range 10 {
						res, err := tu.Run(deadline(t), op)
						if !assert.NoError(t, err) {
							return
						}
						assert.True(t, res.Pending)
						assert.Equal(t, tc.wantRan, res.Ran)
					}
				}()
			}
			wg.Wait() // while the tune is blocked: none of them waited for it
			cand, res, err := tu.Pick(deadline(t), op)
			require.NoError(t, err)
			assert.Equal(t, tc.wantRan, cand.Name)
			assert.True(t, res.Pending, "Pick says the decision is pending")
			assert.Contains(t, res.Table(), "being tuned")
			assert.Equal(t, int64(80), runs[tc.wantRan].Load(), "80 runs of the default, nothing measured yet")

			close(release)
			require.NoError(t, <-tuned)
			res, err = tu.Run(deadline(t), op)
			require.NoError(t, err)
			assert.False(t, res.Pending, "decided")
		})
	}

	t.Run("without the option callers wait", func(t *testing.T) {
		_, c := setup(t)
		tu := tune.New(c, tune.WithDevice("test"))
		started, release := make(chan struct{}), make(chan struct{})
		op := gatedOp("k", started, release, map[string]*atomic.Int64{})
		tuned := make(chan error, 1)
		go func() { _, err := tu.Run(deadline(t), op); tuned <- err }()
		<-started
		var returned atomic.Bool
		waited := make(chan *tune.Result, 1)
		go func() {
			res, err := tu.Run(deadline(t), op)
			assert.NoError(t, err)
			returned.Store(true)
			waited <- res
		}()
		time.Sleep(20 * time.Millisecond) // give it time to return wrongly
		assert.False(t, returned.Load(), "a second caller waits for the tune")
		close(release)
		require.NoError(t, <-tuned)
		assert.False(t, (<-waited).Pending)
	})

	t.Run("unknown default", func(t *testing.T) {
		_, c := setup(t)
		op := pure("k", sleeper("a", 0, nil))
		op.Default = "zz"
		_, err := tune.New(c, tune.WithDevice("test")).Run(deadline(t), op)
		assert.ErrorContains(t, err, `the default candidate "zz" is not one of the candidates`)
	})
}

// BenchmarkRunWhileTuning: 8 goroutines call Run in a loop while the
// first call tunes the key for about one second (its inputs take 1 s to
// make); max-ms is the longest of their calls, default-ms the default
// candidate's own time. With nostall=on max-ms stays near default-ms;
// with nostall=off it is about the whole tune.
func BenchmarkRunWhileTuning(b *testing.B) {
	const (
		goroutines = 8
		tuneTime   = time.Second
		defTime    = time.Millisecond
	)
	for _, noStall := range []bool{false, true} {
		name := map[bool]string{false: "nostall=off", true: "nostall=on"}[noStall]
		b.Run(name, func(b *testing.B) {
			var worst time.Duration
			for range b.N {
				worst = max(worst, runWhileTuning(b, noStall, goroutines, tuneTime, defTime))
			}
			b.ReportMetric(float64(worst)/1e6, "max-ms")
			b.ReportMetric(float64(defTime)/1e6, "default-ms")
		})
	}
}

func runWhileTuning(b *testing.B, noStall bool, goroutines int, tuneTime, defTime time.Duration) time.Duration {
	_, c := setup(b)
	opts := []tune.Option{tune.WithDevice("bench")}
	if noStall {
		opts = append(opts, tune.WithNoStall())
	}
	tu := tune.New(c, opts...)
	started := make(chan struct{})
	var once sync.Once
	op := tune.Op{Key: "k", Candidates: []tune.Candidate{sleeper("default", defTime, nil), sleeper("other", defTime, nil)},
		NewInputs: func(ctx context.Context) ([]gpu.Buffer, func(), error) {
			once.Do(func() { close(started) })
			time.Sleep(tuneTime)
			return nil, nil, nil
		}}
	ctx := context.Background()
	tuned := make(chan error, 1)
	go func() { _, err := tu.Run(ctx, op); tuned <- err }()
	<-started
	var mu sync.Mutex
	var worst time.Duration
	var wg sync.WaitGroup
	stop := make(chan struct{})
	for range goroutines {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case <-stop:
					return
				default:
				}
				t0 := time.Now()
				if _, err := tu.Run(ctx, op); err != nil {
					b.Error(err)
					return
				}
				d := time.Since(t0)
				mu.Lock()
				worst = max(worst, d)
				mu.Unlock()
			}
		}()
	}
	if err := <-tuned; err != nil {
		b.Fatal(err)
	}
	time.Sleep(50 * time.Millisecond) // a few decided calls too
	close(stop)
	wg.Wait()
	return worst
}
