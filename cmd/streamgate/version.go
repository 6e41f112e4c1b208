package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"runtime"
	"runtime/debug"
)

const versionSummary = "the module version and the Go version this streamgate was built with"

func init() {
	register(&command{name: "version", summary: versionSummary, flags: versionFlags})
}

// versionInfo is what streamgate version -json prints.
type versionInfo struct {
	Module  string `json:"module"`  // the module path
	Version string `json:"version"` // the module version; "(devel)" for a build of a checkout
	Go      string `json:"go"`      // the Go version, e.g. "go1.26.8"
	Cgo     bool   `json:"cgo"`     // built with cgo: the WebGPU commands work
}

func versionFlags() (*flag.FlagSet, func(context.Context, io.Writer, io.Writer) int) {
	fs := newFlagSet("version", versionSummary+".\n\n"+
		"With -json it prints one JSON object:\n"+
		`  {"module": "github.com/streamgate/streamgate", "version": "v1.2.3", "go": "go1.26.8", "cgo": true}`)
	asJSON := fs.Bool("json", false, "print one JSON object")
	return fs, func(_ context.Context, stdout, _ io.Writer) int {
		v := readVersion()
		if *asJSON {
			return writeJSON(stdout, v)
		}
		fmt.Fprintf(stdout, "streamgate %s (%s, %s, %s/%s)\n", v.Version, v.Module, v.Go, runtime.GOOS, runtime.GOARCH)
		return 0
	}
}

// modulePath is the module's path, for a binary without build information.
const modulePath = "github.com/streamgate/streamgate"

func readVersion() versionInfo {
	v := versionInfo{Module: modulePath, Version: "(devel)", Go: runtime.Version(), Cgo: cgoEnabled}
	if bi, ok := debug.ReadBuildInfo(); ok {
		if bi.Main.Path == modulePath && bi.Main.Version != "" {
			v.Version = bi.Main.Version
		}
		v.Go = bi.GoVersion
	}
	return v
}

// writeJSON writes v to w as one JSON object on one line; it returns the
// exit status.
func writeJSON(w io.Writer, v any) int {
	if err := json.NewEncoder(w).Encode(v); err != nil {
		return 1
	}
	return 0
}
