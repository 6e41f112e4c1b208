//go:build js && wasm

package wgpu

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall/js"
)

// deviceDriver is the browser backend's part of a Device: the page's
// GPUDevice and its JavaScript side.
type deviceDriver struct {
	dev     js.Value   // written once: the GPUDevice
	rt      *jsRuntime // written once: the page's side (jsrt_js.go)
	jsMu    sync.Mutex // a leaf: a pair of calls sharing rt's command bytes (load, then use)
	onError js.Func    // the device's uncapturederror handler; released by Close
}

// haveDevice: this build opens devices.
const haveDevice = true

// defaultCompileWorkers is CompileWorkers when Options leave it 0: the
// page has one thread, and the browser compiles in the background.
func defaultCompileWorkers() int { return 1 }

// noWebGPU says what a page without navigator.gpu lacks.
const noWebGPU = "this page has no navigator.gpu, so no WebGPU: it needs a secure context " +
	"(https://, or http://127.0.0.1 or localhost) and a browser with WebGPU on " +
	"(Chromium on Linux: --enable-unsafe-webgpu, or chrome://flags/#enable-unsafe-webgpu)"

// noAdapter says why requestAdapter may return null.
const noAdapter = "navigator.gpu.requestAdapter returned null: the browser offers no adapter. " +
	"Chromium on Linux needs --enable-unsafe-webgpu (chrome://flags/#enable-unsafe-webgpu); headless, it may also need " +
	"--use-angle=swiftshader --enable-features=Vulkan; a GPU or driver on the browser's blocklist gives none either " +
	"(chrome://gpu says which)"

// Open requests an adapter from the page's navigator.gpu (Options'
// PowerPreference, ForceFallbackAdapter and Compatibility, WebGPU's
// featureLevel "compatibility") and a device with the adapter's limits.
// Without navigator.gpu, or when the browser returns no adapter, it
// returns an error matching [ErrNoAdapter] that names the flag or setting
// missing. It waits for the browser: call it from a goroutine, not inside
// a js.FuncOf callback. Options.Adapter may be "" or "0" (the page has one
// adapter) or a substring of its description or vendor; Backend must be
// BackendAny or BackendBrowser.
func Open(opts Options) (*Device, error) {
	const op = "Open"
	ctx := context.Background()
	adapter, info, err := requestAdapter(ctx, op, opts)
	if err != nil {
		return nil, err
	}
	alim := adapter.Get("limits")
	req := js.Global().Get("Object").New()
	for _, name := range requestedLimits {
		if v := alim.Get(name); v.Type() == js.TypeNumber {
			req.Set(name, v)
		}
	}
	desc := js.Global().Get("Object").New()
	desc.Set("label", "streamgate")
	desc.Set("requiredLimits", req)
	dv, err := await(ctx, op, adapter.Call("requestDevice", desc))
	if err != nil {
		return nil, &Error{Op: op, Type: ErrorTypeInternal, Message: "request device: the browser refused: " + err.(*Error).Message}
	}
	d := newDevice(opts, info, limitsOf(dv.Get("limits")))
	d.dev, d.rt = dv, newRuntime(dv)
	d.onError = js.FuncOf(func(_ js.Value, args []js.Value) any {
		uncapturedTotal.Add(1)
		msg := "uncaptured error"
		if len(args) > 0 {
			if e := args[0].Get("error"); e.Truthy() {
				msg = jsMessage(e)
			}
		}
		d.reportUncaptured(ErrorTypeValidation, msg)
		return nil
	})
	dv.Call("addEventListener", "uncapturederror", d.onError)
	track(d) // observe.go: Devices
	return d, nil
}

// uncapturedTotal counts the uncaptured errors of every device.
var uncapturedTotal atomic.Uint64

// requestedLimits are the adapter limits Open asks the device for.
var requestedLimits = []string{
	"maxBufferSize", "maxStorageBufferBindingSize", "maxUniformBufferBindingSize", "maxBindGroups",
	"maxStorageBuffersPerShaderStage", "maxUniformBuffersPerShaderStage", "maxComputeWorkgroupStorageSize",
	"maxComputeInvocationsPerWorkgroup", "maxComputeWorkgroupSizeX", "maxComputeWorkgroupSizeY",
	"maxComputeWorkgroupSizeZ", "maxComputeWorkgroupsPerDimension",
	"maxTextureDimension1D", "maxTextureDimension2D", "maxTextureDimension3D", "maxTextureArrayLayers",
}

// requestAdapter asks navigator.gpu for the adapter opts describe.
func requestAdapter(ctx context.Context, op string, opts Options) (js.Value, AdapterInfo, error) {
	if opts.Backend != BackendAny && opts.Backend != BackendBrowser {
		return js.Value{}, AdapterInfo{}, newError(op, ErrorTypeUnsupported, "backend %v: in a browser the only backend is the page's WebGPU (BackendBrowser)", opts.Backend)
	}
	nav := js.Global().Get("navigator")
	if !nav.Truthy() || !nav.Get("gpu").Truthy() {
		msg := noWebGPU
		if sc := js.Global().Get("isSecureContext"); sc.Type() == js.TypeBoolean && !sc.Bool() {
			msg += " (this page is not a secure context)"
		}
		return js.Value{}, AdapterInfo{}, &Error{Op: op, Type: ErrorTypeNoAdapter, Message: msg}
	}
	o := js.Global().Get("Object").New()
	switch opts.PowerPreference {
	case PowerPreferenceLowPower:
		o.Set("powerPreference", "low-power")
	case PowerPreferenceHighPerformance:
		o.Set("powerPreference", "high-performance")
	}
	if opts.ForceFallbackAdapter {
		o.Set("forceFallbackAdapter", true)
	}
	if opts.Compatibility {
		o.Set("featureLevel", "compatibility")
	}
	a, err := await(ctx, op, nav.Get("gpu").Call("requestAdapter", o))
	if err != nil {
		return js.Value{}, AdapterInfo{}, err
	}
	if !a.Truthy() {
		msg := noAdapter
		if !opts.Compatibility {
			msg += "; a browser or driver that offers only WebGPU's compatibility feature level needs Options.Compatibility"
		}
		return js.Value{}, AdapterInfo{}, &Error{Op: op, Type: ErrorTypeNoAdapter, Message: msg}
	}
	info := adapterInfoOf(a)
	if sel := opts.Adapter; sel != "" && sel != "0" {
		lsel := strings.ToLower(sel)
		if _, err := strconv.Atoi(sel); err == nil ||
			!(strings.Contains(strings.ToLower(info.Name), lsel) || strings.Contains(strings.ToLower(info.Vendor), lsel)) {
			return js.Value{}, AdapterInfo{}, &Error{Op: op, Type: ErrorTypeNoAdapter,
				Message: fmt.Sprintf("no adapter %q: the page's one adapter (index 0) is %q (%s)", sel, info.Name, info.Vendor)}
		}
	}
	return a, info, nil
}

// adapterInfoOf reads a GPUAdapter's info.
func adapterInfoOf(a js.Value) AdapterInfo {
	ai := a.Get("info")
	str := func(name string) string {
		if ai.Truthy() {
			if v := ai.Get(name); v.Type() == js.TypeString {
				return v.String()
			}
		}
		return ""
	}
	info := AdapterInfo{
		Vendor:       str("vendor"),
		Architecture: str("architecture"),
		Driver:       str("description"),
		Name:         str("description"),
		Backend:      BackendBrowser,
	}
	if info.Name == "" {
		info.Name = strings.TrimSpace(info.Vendor + " " + info.Architecture + " " + str("device"))
	}
	fb := a.Get("isFallbackAdapter")
	if ai.Truthy() && ai.Get("isFallbackAdapter").Type() == js.TypeBoolean {
		fb = ai.Get("isFallbackAdapter")
	}
	info.Fallback = fb.Type() == js.TypeBoolean && fb.Bool()
	if info.Fallback {
		info.Type = AdapterTypeCPU
	}
	return info
}

// limitsOf reads a GPUSupportedLimits.
func limitsOf(l js.Value) Limits {
	u64 := func(n string) uint64 { return uint64(l.Get(n).Float()) }
	u32 := func(n string) uint32 { return uint32(l.Get(n).Float()) }
	return Limits{
		MaxBufferSize:                     u64("maxBufferSize"),
		MaxStorageBufferBindingSize:       u64("maxStorageBufferBindingSize"),
		MaxUniformBufferBindingSize:       u64("maxUniformBufferBindingSize"),
		MaxBindGroups:                     u32("maxBindGroups"),
		MaxStorageBuffersPerShaderStage:   u32("maxStorageBuffersPerShaderStage"),
		MaxUniformBuffersPerShaderStage:   u32("maxUniformBuffersPerShaderStage"),
		MaxBindingsPerBindGroup:           u32("maxBindingsPerBindGroup"),
		MaxComputeWorkgroupStorageSize:    u32("maxComputeWorkgroupStorageSize"),
		MaxComputeInvocationsPerWorkgroup: u32("maxComputeInvocationsPerWorkgroup"),
		MaxComputeWorkgroupSizeX:          u32("maxComputeWorkgroupSizeX"),
		MaxComputeWorkgroupSizeY:          u32("maxComputeWorkgroupSizeY"),
		MaxComputeWorkgroupSizeZ:          u32("maxComputeWorkgroupSizeZ"),
		MaxComputeWorkgroupsPerDimension:  u32("maxComputeWorkgroupsPerDimension"),
		MinStorageBufferOffsetAlignment:   u32("minStorageBufferOffsetAlignment"),
		MinUniformBufferOffsetAlignment:   u32("minUniformBufferOffsetAlignment"),
		MaxTextureDimension1D:             u32("maxTextureDimension1D"),
		MaxTextureDimension2D:             u32("maxTextureDimension2D"),
		MaxTextureDimension3D:             u32("maxTextureDimension3D"),
		MaxTextureArrayLayers:             u32("maxTextureArrayLayers"),
	}
}

// Adapters lists the page's adapter: navigator.gpu offers one, for the
// default options. It waits for the browser (see [Open]).
func Adapters() ([]AdapterInfo, error) {
	_, info, err := requestAdapter(context.Background(), "Adapters", Options{})
	if err != nil {
		return nil, err
	}
	return []AdapterInfo{info}, nil
}

// beforeClose waits for the compiles in flight, whose driver halves await
// the browser without the device's life lock; inside a js.FuncOf callback
// it cannot (the page's event loop waits for the callback), and they fail
// with ErrClosed instead.
func (d *Device) beforeClose() {
	if !inCallback() {
		d.drivers.Wait()
	}
}

// drainQueue does nothing: destroying the device (closeDriver) lets the
// browser finish or drop the submitted work.
func (d *Device) drainQueue() {}

// closeDriver releases the device's callbacks and destroys the GPUDevice,
// last in Close.
func (d *Device) closeDriver() {
	d.dev.Call("removeEventListener", "uncapturederror", d.onError)
	d.onError.Release()
	d.rt.destroyDevice.Invoke()
}

// setLogLevel does nothing in a browser: the browser's console has the
// driver's messages.
func setLogLevel(LogLevel) {}

// uncapturedErrors returns how many WebGPU errors escaped every error
// scope in this page.
func uncapturedErrors() uint64 { return uncapturedTotal.Load() }

// queryHandle is a timestamp query set; the browser's build makes none
// (Device.hasTS is false, so TimeStream refuses before it would).
type queryHandle = int

func (d *Device) newTimestampQueries(op string) (queryHandle, bufHandle, error) {
	return 0, 0, newError(op, ErrorTypeUnsupported, "the browser's build has no timestamp queries")
}
func (s *stream) timestampLocked(op string, _ queryHandle, _ uint32) error {
	return newError(op, ErrorTypeUnsupported, "the browser's build has no timestamp queries")
}
func (s *stream) resolveQueriesLocked(op string, _ queryHandle, _ bufHandle) error {
	return newError(op, ErrorTypeUnsupported, "the browser's build has no timestamp queries")
}
func (d *Device) dropQueries(queryHandle, bufHandle) {}
