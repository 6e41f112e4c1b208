//go:build cgo

package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"reflect"

	"github.com/streamgate/streamgate/internal/workload/genrun"
	"github.com/streamgate/streamgate/wgpu"
)

const infoSummary = "list the WebGPU adapters; open the default one (or -adapter's) and print its features and limits"

func init() {
	register(&command{name: "info", summary: infoSummary, flags: infoFlags})
}

func infoFlags() (*flag.FlagSet, func(context.Context, io.Writer, io.Writer) int) {
	fs := newFlagSet("info", infoSummary+".\n\n"+
		"With -json it prints one JSON object instead:\n"+
		`  {"adapters": [ADAPTER...], "device": ADAPTER + {"identity": "...", "limits": {"MaxBufferSize": N, ...}}}`+"\n"+
		`where ADAPTER is {"name", "vendor", "vendor_id", "device_id", "driver", "architecture",`+"\n"+
		`"backend", "type", "timestamps"}; the limits keep WebGPU's names.`)
	asJSON := fs.Bool("json", false, "print one JSON object")
	adapter := adapterFlag(fs)
	return fs, func(_ context.Context, stdout, stderr io.Writer) int {
		if *asJSON {
			return infoJSON(*adapter, stdout, stderr)
		}
		return info(*adapter, stdout, stderr)
	}
}

// adapterJSON is an adapter in info -json.
type adapterJSON struct {
	Name         string `json:"name"`
	Vendor       string `json:"vendor"`
	VendorID     uint32 `json:"vendor_id"`
	DeviceID     uint32 `json:"device_id"`
	Driver       string `json:"driver"`
	Architecture string `json:"architecture"`
	Backend      string `json:"backend"`
	Type         string `json:"type"`
	Timestamps   bool   `json:"timestamps"`
}

func adapterOf(a wgpu.AdapterInfo) adapterJSON {
	return adapterJSON{a.Name, a.Vendor, a.VendorID, a.DeviceID, a.Driver, a.Architecture, a.Backend.String(), a.Type.String(), a.Timestamps}
}

// infoJSON is info -json.
func infoJSON(adapter string, stdout, stderr io.Writer) int {
	adapters, err := wgpu.Adapters()
	if err != nil {
		fmt.Fprintf(stderr, "streamgate info: listing adapters: %v\n", err)
		return 1
	}
	var out struct {
		Adapters []adapterJSON `json:"adapters"`
		Device   struct {
			adapterJSON
			Identity string         `json:"identity"`
			Limits   map[string]any `json:"limits"`
		} `json:"device"`
	}
	out.Adapters = []adapterJSON{}
	for _, a := range adapters {
		out.Adapters = append(out.Adapters, adapterOf(a))
	}
	d, err := wgpu.Open(wgpu.Options{Adapter: adapter})
	if err != nil {
		fmt.Fprintf(stderr, "streamgate info: opening the device: %v\n", err)
		return 1
	}
	defer d.Close()
	out.Device.adapterJSON = adapterOf(d.Info())
	out.Device.Identity = d.AdapterIdentity()
	out.Device.Limits = map[string]any{}
	lim := reflect.ValueOf(d.Limits())
	for f := range lim.NumField() {
		out.Device.Limits[lim.Type().Field(f).Name] = lim.Field(f).Interface()
	}
	return writeJSON(stdout, out)
}

// info prints the adapters, then the device streamgate opens with -adapter
// adapter ("" for the default). It returns the exit status: 1 when no device
// opens.
func info(adapter string, stdout, stderr io.Writer) int {
	adapters, err := wgpu.Adapters()
	if err != nil {
		fmt.Fprintf(stderr, "streamgate info: listing adapters: %v\n", err)
		return 1
	}
	fmt.Fprintf(stdout, "adapters: %d\n", len(adapters))
	for i, a := range adapters {
		note := ""
		if a.Backend != wgpu.BackendVulkan && a.Backend != wgpu.BackendMetal && a.Backend != wgpu.BackendD3D12 {
			note = " (listed only: -adapter opens Vulkan, Metal and D3D12 adapters)"
		}
		fmt.Fprintf(stdout, "  %d. %s%s\n", i, genrun.DescribeAdapter(a), note)
		fmt.Fprintf(stdout, "     vendor %q (%#x), device %#x\n", a.Vendor, a.VendorID, a.DeviceID)
	}
	d, err := wgpu.Open(wgpu.Options{Adapter: adapter})
	if errors.Is(err, wgpu.ErrNoAdapter) && adapter == "" {
		fmt.Fprintf(stderr, "streamgate info: no WebGPU adapter: %v\n(on a machine without a GPU, install Mesa's lavapipe: make deps-gpu)\n", err)
		return 1
	}
	if err != nil {
		fmt.Fprintf(stderr, "streamgate info: opening the device: %v\n", err)
		return 1
	}
	defer d.Close()
	i := d.Info()
	if adapter == "" {
		fmt.Fprintf(stdout, "\ndevice (the default adapter, as streamgate warmup opens it):\n")
	} else {
		fmt.Fprintf(stdout, "\ndevice (-adapter %q, as streamgate warmup -adapter %q opens it):\n", adapter, adapter)
	}
	fmt.Fprintf(stdout, "  adapter:       %s\n", i.Name)
	fmt.Fprintf(stdout, "  type:          %v\n", i.Type)
	fmt.Fprintf(stdout, "  backend:       %v\n", i.Backend)
	fmt.Fprintf(stdout, "  driver:        %s\n", i.Driver)
	fmt.Fprintf(stdout, "  vendor:        %s (%#x), device %#x\n", i.Vendor, i.VendorID, i.DeviceID)
	if i.Architecture != "" {
		fmt.Fprintf(stdout, "  architecture:  %s\n", i.Architecture)
	}
	fmt.Fprintf(stdout, "  identity:      %s (the tune cache's device key)\n", d.AdapterIdentity())
	fmt.Fprintf(stdout, "features:\n")
	fmt.Fprintf(stdout, "  timestamp-query: %v (autotune timing: %s)\n", d.HasTimestamps(), timingOf(d.HasTimestamps()))
	fmt.Fprintf(stdout, "limits:\n")
	lim := reflect.ValueOf(d.Limits())
	for f := range lim.NumField() {
		fmt.Fprintf(stdout, "  %-34s %v\n", lim.Type().Field(f).Name, lim.Field(f).Interface())
	}
	return 0
}

func timingOf(timestamps bool) string {
	if timestamps {
		return "GPU timestamps"
	}
	return "wall clock"
}
