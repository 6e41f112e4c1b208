//go:build cgo

package main

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/streamgate/streamgate/tune/rediscache"
	"github.com/streamgate/streamgate/wgpu"
)

// The three ways generate measures a start. Cold: the first run ever, a
// child with every cache empty (coldchild.go). Restart: a fresh process
// with the caches a user has after one run — the tune and kernel caches as
// this run left them, Mesa's shader cache as it is, no other state — timed
// from its process start to its first token, device open and warm-up
// included (restartFigures). Warm: in this process, from the step.

// processT0Env carries a parent's clock reading (Unix nanoseconds) taken
// just before it started this process, so that a child's figures "from
// process start" include the exec and the runtime's start.
const processT0Env = "STREAMGATE_PROCESS_T0"

// restartChildEnv marks generate's restart child, which measures no
// restart of its own.
const restartChildEnv = "STREAMGATE_RESTART_CHILD"

// processStart is when this process began running Go code: package
// variables are initialized before main.
var processStart = time.Now()

// processT0 returns when this process started: the parent's reading in
// processT0Env when it is there and plausible (before processStart, by
// less than a minute), else processStart.
func processT0() time.Time {
	if v := os.Getenv(processT0Env); v != "" {
		if ns, err := strconv.ParseInt(v, 10, 64); err == nil {
			t := time.Unix(0, ns)
			if !t.After(processStart) && processStart.Sub(t) < time.Minute {
				return t
			}
		}
	}
	return processStart
}

// sinceStart is the time since this process started, in milliseconds.
func sinceStart() float64 { return ms(time.Since(processT0())) }

// kernelCacheJSON is the "kernel_cache" object of generate's and warmup's
// -json: what this process's compiles found in the kernel cache.
type kernelCacheJSON struct {
	Store       string `json:"store"`        // the directory, "off", or the kind of store
	StoreHits   int64  `json:"store_hits"`   // sources read from the store: not lowered
	Misses      int64  `json:"misses"`       // sources lowered
	Rejected    int64  `json:"rejected"`     // entries that failed their check, lowered again
	StoreErrors int64  `json:"store_errors"` // entries that could not be stored
}

// kernelCacheState reads the process's kernel cache counts since st0 and
// names its store.
func kernelCacheState(st0 wgpu.KernelCacheStats) kernelCacheJSON {
	st := wgpu.ReadKernelCacheStats()
	j := kernelCacheJSON{StoreHits: st.StoreHits - st0.StoreHits, Misses: st.Misses - st0.Misses,
		Rejected: st.Rejected - st0.Rejected, StoreErrors: st.StoreErrors - st0.StoreErrors}
	switch s := wgpu.CurrentKernelStore().(type) {
	case nil:
		j.Store = "off"
	case *rediscache.Cache:
		j.Store = "the tune cache, shared through Redis"
	case *wgpu.KernelDir:
		j.Store = s.Dir()
		if s.ReadOnly() {
			j.Store += " (read-only)"
		}
	default:
		j.Store = fmt.Sprintf("%T", s)
	}
	return j
}

// cacheArgs returns the command-line flags that name f's caches, and
// the bundle behind them.
func cacheArgs(f cacheFlags) []string {
	return []string{"-cache", f.path, "-cache-url", f.url, "-bundle", f.bundle}
}

// restartFigures runs generate again as a fresh child process with the
// caches this run left, and fills rep's restart fields from its report.
func restartFigures(ctx context.Context, cfg generateConfig, rep *generateReport) error {
	args := append(generateChildArgs(cfg), "-cold=false", "-restart=false", "-json", "-out", "")
	args = append(args, cacheArgs(cfg.cache)...)
	if cfg.compileWorkers != 0 {
		args = append(args, "-compile-workers", strconv.Itoa(cfg.compileWorkers))
	}
	args = append(args, "-timing", cfg.timing)
	var env []string
	for _, kv := range os.Environ() {
		if k, _, _ := strings.Cut(kv, "="); k != processT0Env && k != restartChildEnv && k != coldChildEnv {
			env = append(env, kv)
		}
	}
	var child generateReport
	if err := runChild(ctx, "restart", args, append(env, restartChildEnv+"=1"), &child); err != nil {
		return err
	}
	rep.Restart = true
	rep.RestartMsToFirstToken = child.ProcessMsToFirstToken
	rep.RestartDeviceOpenMs = child.DeviceOpenMs
	rep.RestartWarmupMs = child.WarmupSeconds * 1000
	rep.RestartWarmupCompileMs = child.WarmupCompileMs
	rep.RestartTTFTMs = child.TTFTMsWarm
	rep.RestartLoweringStarts = child.LoweringStarts
	rep.RestartKernelCache = child.KernelCache
	rep.RestartTunedKeys = child.TunedKeys
	return nil
}
