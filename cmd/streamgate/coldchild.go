//go:build cgo

package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/streamgate/streamgate/wgpu"
)

// The cold figures of generate and warmup come from child processes: the
// command re-executed with coldChildEnv set to what the child measures
// and coldWinnersEnv to the warm run's winners (a JSON object, key →
// variant), its caches empty (coldEnv). A process that compiled the same
// kernels already — the warm run itself — would find its lowering cache
// and the driver's shader cache warm and report a cold figure below the
// warm one. A child prints one JSON object and nothing else on stdout.
const (
	coldChildEnv   = "STREAMGATE_COLD_CHILD"
	coldWinnersEnv = "STREAMGATE_COLD_WINNERS"

	childCold    = "cold"    // the command's work without a warm-up
	childCompile = "compile" // generate: compiling the winners' pipelines alone
)

// coldEnv returns the environment of a cold child: this process's, with
// Mesa's shader cache off and pointed at the empty folder dir/mesa (other
// drivers' on-disk caches are not cleared), the kernel cache the empty
// folder dir/kernels (the first run ever lowers every source), and with
// emptySandbox the
// user cache directory — where the naga sandbox keeps its compilation
// cache — an empty dir/cache too.
func coldEnv(dir, mode string, winners map[string]string, emptySandbox bool) ([]string, error) {
	w, err := json.Marshal(winners)
	if err != nil {
		return nil, err
	}
	set := map[string]string{
		"MESA_SHADER_CACHE_DISABLE": "true",
		"MESA_GLSL_CACHE_DISABLE":   "true", // the name before Mesa 22
		"MESA_SHADER_CACHE_DIR":     filepath.Join(dir, "mesa"),
		wgpu.KernelCacheEnv:         filepath.Join(dir, "kernels"),
		coldChildEnv:                mode,
		coldWinnersEnv:              string(w),
	}
	if emptySandbox {
		set["XDG_CACHE_HOME"] = filepath.Join(dir, "cache")
	}
	var env []string
	for _, kv := range os.Environ() {
		if k, _, _ := strings.Cut(kv, "="); set[k] == "" {
			env = append(env, kv)
		}
	}
	for k, v := range set {
		env = append(env, k+"="+v)
	}
	return env, nil
}

// runColdChild re-executes this program with args (a command and its
// flags) as a child of the given mode, in coldEnv's environment, and
// decodes the child's report into rep. args[0] names the child in errors.
func runColdChild(ctx context.Context, args []string, mode string, winners map[string]string, emptySandbox bool, rep any) error {
	dir, err := os.MkdirTemp("", "streamgate-cold-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	env, err := coldEnv(dir, mode, winners, emptySandbox)
	if err != nil {
		return err
	}
	return runChild(ctx, mode, args, env, rep)
}

// runChild re-executes this program with args (a command and its flags)
// in env, which gains processT0Env read just before the exec, and decodes
// the one JSON object the child prints into rep; name (and args[0]) name
// the child in errors.
func runChild(ctx context.Context, name string, args, env []string, rep any) error {
	exe, err := os.Executable()
	if err != nil {
		return fmt.Errorf("finding this program to re-execute: %w", err)
	}
	cmd := exec.CommandContext(ctx, exe, args...)
	cmd.Env = append(env, processT0Env+"="+strconv.FormatInt(time.Now().UnixNano(), 10))
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Run(); err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return fmt.Errorf("the %s child (%s %s): %v\n%s", name, exe, args[0], err, strings.TrimSpace(errOut.String()))
	}
	if err := json.Unmarshal(out.Bytes(), rep); err != nil {
		return fmt.Errorf("the %s child's report %q: %v", name, out.String(), err)
	}
	return nil
}

// childWinners returns the winners a cold child was given.
func childWinners() (map[string]string, error) {
	var winners map[string]string
	if err := json.Unmarshal([]byte(os.Getenv(coldWinnersEnv)), &winners); err != nil {
		return nil, fmt.Errorf("%s: %v", coldWinnersEnv, err)
	}
	return winners, nil
}
