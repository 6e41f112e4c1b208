//go:build js && wasm

package main

import (
	"context"
	"encoding/json"
	"errors"
	"syscall/js"

	"github.com/streamgate/streamgate/cmd/streamgate-web/internal/page"
	"github.com/streamgate/streamgate/wgpu"
)

// hintFlag says how to give a browser WebGPU when it has none.
const hintFlag = "Chromium or Chrome: start it with --enable-unsafe-webgpu (headless: --headless=new --enable-unsafe-webgpu), " +
	"or enable chrome://flags/#enable-unsafe-webgpu; on Linux also --enable-features=Vulkan where the GPU is blocklisted. " +
	"Firefox: set dom.webgpu.enabled to true in about:config. Safari: enable WebGPU under Develop > Feature Flags."

func main() {
	ui := newUI()
	res := run(context.Background(), ui)
	ui.finish(res)
}

// run reads the page's query, checks that the browser has WebGPU and runs
// the demo; it returns the result to publish.
func run(ctx context.Context, ui *ui) page.Result {
	cfg, err := page.ParseQuery(js.Global().Get("location").Get("search").String())
	if err != nil {
		return page.Result{State: page.StateError, Error: err.Error()}
	}
	if gpu := js.Global().Get("navigator").Get("gpu"); gpu.IsUndefined() || gpu.IsNull() {
		return page.Result{State: page.StateNoWebGPU, Error: "this browser has no WebGPU: navigator.gpu is missing", Hint: hintFlag}
	}
	ui.step("opening the device (navigator.gpu.requestAdapter, requestDevice)")
	d, err := wgpu.Open(wgpu.Options{})
	if errors.Is(err, wgpu.ErrNoAdapter) {
		return page.Result{State: page.StateNoAdapter, Error: "no WebGPU adapter: " + err.Error(), Hint: hintFlag}
	}
	if err != nil {
		return page.Result{State: page.StateError, Error: "opening the device: " + err.Error()}
	}
	defer d.Close()
	res, err := demo(ctx, ui, d, cfg)
	if err != nil {
		res.State, res.Error = page.StateError, err.Error()
	}
	res.Isolated = js.Global().Get("crossOriginIsolated").Truthy()
	return res
}

// marshal is the JSON of r.
func marshal(r page.Result) string {
	b, err := json.Marshal(r)
	if err != nil { // a Result has only plain fields; NaN would be the one failure
		b, _ = json.Marshal(page.Result{State: page.StateError, Error: "encoding the result: " + err.Error()})
	}
	return string(b)
}
