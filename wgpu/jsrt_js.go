//go:build js && wasm

package wgpu

import (
	"context"
	"runtime"
	"strings"
	"syscall/js"
)

// The browser's side of the js build: a small JavaScript object per device
// (jsRuntime) that holds the WebGPU objects in a table Go names by index,
// and encodes a whole batch of launches — an integer command list Go
// recorded — into one compute pass in one call (flush). Every promise is
// awaited from a goroutine (await), never inside a js.FuncOf callback.

// Commands of the list a stream records and flush decodes, one uint32 each:
//
//	cmdLaunch1 pipeline bg x y z                 (a launch of one group)
//	cmdLaunch  pipeline groups bg0 … bgN-1 x y z (of any other number)
//	cmdReplay  graph   (a graph's own list, held by the JS side)
const (
	cmdLaunch  = 0
	cmdReplay  = 1
	cmdLaunch1 = 2
)

// appendLaunchHead appends to cmds the words of a launch command of p
// before its bind groups, pipe its pipeline's: cmdLaunch1 for one group,
// else cmdLaunch and the number of groups. Either way the pipeline is
// the command's second word.
func appendLaunchHead(cmds []uint32, p *pipeline, pipe uint32) []uint32 {
	if len(p.groups) == 1 {
		return append(cmds, cmdLaunch1, pipe)
	}
	return append(cmds, cmdLaunch, pipe, uint32(len(p.groups)))
}

// runtimeJS makes a device's JavaScript side:
// new Function("device", runtimeJS)(device).
//
// Errors: one set of error scopes (validation, out-of-memory, internal) is
// open on the device at all times, and done closes it and opens the next:
// a Sync reports the first error the browser found in the device's work
// since the last one, and an operation costs no scope and no promise of
// its own, so nothing grows with the operations between two Syncs.
//
// Decoding (run): a setPipeline or setBindGroup is skipped when it sets
// what the pass has already (lp, lbg: the pipeline and each index's bind
// group last set, by table index). They hold for one compute pass: flush
// forgets them as it begins the next, and a replay's commands, decoded in
// the same pass, read and update them as the stream's own. A launch of
// one group, the common case, is a command of its own (cmdLaunch1),
// decoded at fixed offsets; a dispatch of y = z = 1 passes x alone
// (WebGPU's defaults for the others), which the browser's binding
// converts faster.
const runtimeJS = `
"use strict";
const objs = [null];
const free = [];
const put = (o) => { const i = free.length ? free.pop() : objs.length; objs[i] = o; return i; };
let cmdBytes = new Uint8Array(1 << 16);
let cmd = new Uint32Array(cmdBytes.buffer);
const lbg = [-1, -1, -1, -1, -1, -1, -1, -1];
let lp = -1;
const run = (pass, u, n) => {
	let i = 0;
	while (i < n) {
		const op = u[i];
		if (op === 2) {
			const p = u[i + 1], b = u[i + 2], x = u[i + 3], y = u[i + 4], z = u[i + 5];
			i += 6;
			if (p !== lp) { pass.setPipeline(objs[p]); lp = p; }
			if (b !== lbg[0]) { pass.setBindGroup(0, objs[b]); lbg[0] = b; }
			if (y === 1 && z === 1) pass.dispatchWorkgroups(x); else pass.dispatchWorkgroups(x, y, z);
		} else if (op === 0) {
			const p = u[i + 1], ng = u[i + 2];
			i += 3;
			if (p !== lp) { pass.setPipeline(objs[p]); lp = p; }
			for (let g = 0; g < ng; g++) {
				const b = u[i++];
				if (b !== lbg[g]) { pass.setBindGroup(g, objs[b]); lbg[g] = b; }
			}
			const x = u[i], y = u[i + 1], z = u[i + 2];
			i += 3;
			if (y === 1 && z === 1) pass.dispatchWorkgroups(x); else pass.dispatchWorkgroups(x, y, z);
		} else {
			const g = objs[u[i + 1]];
			i += 2;
			run(pass, g, g.length);
		}
	}
};
const openScopes = () => {
	device.pushErrorScope("validation");
	device.pushErrorScope("out-of-memory");
	device.pushErrorScope("internal");
};
openScopes();
const closeScopes = () => {
	const s = [device.popErrorScope(), device.popErrorScope(), device.popErrorScope()];
	openScopes();
	return s;
};
const errText = (e) => {
	if (!e) return "";
	let t = "validation";
	if (typeof GPUOutOfMemoryError !== "undefined" && e instanceof GPUOutOfMemoryError) t = "out-of-memory";
	else if (typeof GPUInternalError !== "undefined" && e instanceof GPUInternalError) t = "internal";
	return t + "\n" + (e.message || String(e));
};
return {
	put,
	del: (i) => { objs[i] = undefined; free.push(i); },
	get: (i) => objs[i],
	cmdBuf: (n) => {
		if (cmdBytes.byteLength < n) {
			let m = cmdBytes.byteLength;
			while (m < n) m *= 2;
			cmdBytes = new Uint8Array(m);
			cmd = new Uint32Array(cmdBytes.buffer);
		}
		return cmdBytes;
	},
	flush: (n) => {
		const enc = device.createCommandEncoder();
		const pass = enc.beginComputePass();
		lp = -1; lbg.fill(-1);
		run(pass, cmd, n);
		pass.end();
		device.queue.submit([enc.finish()]);
	},
	graph: (n) => put(cmd.slice(0, n)),
	newBuffer: (size, usage) => put(device.createBuffer({size, usage})),
	destroy: (i) => { const b = objs[i]; objs[i] = undefined; free.push(i); if (b && b.destroy) b.destroy(); },
	write: (b, off, n) => device.queue.writeBuffer(objs[b], off, cmdBytes, 0, n),
	copy: (src, so, dst, dof, n) => {
		const enc = device.createCommandEncoder();
		if (src === 0) enc.clearBuffer(objs[dst], dof, n); else enc.copyBufferToBuffer(objs[src], so, objs[dst], dof, n);
		device.queue.submit([enc.finish()]);
	},
	// read copies n bytes of buffer b at off into the staging buffer s and
	// maps it; the promise resolves to a copy of the bytes, s unmapped
	// again in the promise's own continuation.
	read: (b, off, s, n) => {
		const sb = objs[s];
		const enc = device.createCommandEncoder();
		enc.copyBufferToBuffer(objs[b], off, sb, 0, n);
		device.queue.submit([enc.finish()]);
		return sb.mapAsync(GPUMapMode.READ, 0, n).then(() => {
			const out = new Uint8Array(sb.getMappedRange(0, n).slice(0));
			sb.unmap();
			return out;
		});
	},
	// layout makes a bind group layout of entries of five values each:
	// binding, kind (0 buffer, 1 texture, 2 storage texture, 3 sampler),
	// then a buffer's type index and minimum size, a texture's sample type,
	// view dimension and multisampled, a storage texture's access, view
	// dimension and format, or a sampler's type.
	layout: (...a) => {
		const entries = [];
		for (let i = 0; i < a.length; i += 5) {
			const e = {binding: a[i], visibility: GPUShaderStage.COMPUTE};
			switch (a[i + 1]) {
			case 1: e.texture = {sampleType: a[i + 2], viewDimension: a[i + 3], multisampled: a[i + 4]}; break;
			case 2: e.storageTexture = {access: a[i + 2], viewDimension: a[i + 3], format: a[i + 4]}; break;
			case 3: e.sampler = {type: a[i + 2]}; break;
			default: {
				const buffer = {type: ["storage", "read-only-storage", "uniform"][a[i + 2]]};
				if (a[i + 3] > 0) buffer.minBindingSize = a[i + 3];
				e.buffer = buffer;
			}
			}
			entries.push(e);
		}
		return put(device.createBindGroupLayout({entries}));
	},
	// bindGroup makes a bind group of entries of three values each:
	// binding, kind (0 a buffer, else a view or a sampler) and the object.
	bindGroup: (layout, ...a) => {
		const entries = [];
		for (let i = 0; i < a.length; i += 3) {
			const o = objs[a[i + 2]];
			entries.push({binding: a[i], resource: a[i + 1] === 0 ? {buffer: o} : o});
		}
		return put(device.createBindGroup({layout: objs[layout], entries}));
	},
	compile: async (label, code, entry, ...layouts) => {
		device.pushErrorScope("validation");
		const module = device.createShaderModule({label, code});
		const scope = device.popErrorScope();
		const info = await module.getCompilationInfo();
		const serr = await scope;
		for (const m of info.messages) {
			if (m.type === "error") return {error: "validation", line: m.lineNum, col: m.linePos, message: m.message};
		}
		if (serr) return {error: "validation", line: 0, col: 0, message: serr.message};
		device.pushErrorScope("validation");
		const layout = device.createPipelineLayout({label, bindGroupLayouts: layouts.map((i) => objs[i])});
		const lerr = await device.popErrorScope();
		if (lerr) return {error: "validation", line: 0, col: 0, message: lerr.message};
		try {
			const p = await device.createComputePipelineAsync({label, layout, compute: {module, entryPoint: entry}});
			return {pipeline: put(p)};
		} catch (e) {
			return {error: "validation", line: 0, col: 0, message: e.message || String(e)};
		}
	},
	done: () => Promise.all([device.queue.onSubmittedWorkDone(), ...closeScopes()]).then((r) => {
		for (let i = 1; i < r.length; i++) if (r[i]) return errText(r[i]);
		return "";
	}),
	lost: () => device.lost.then((i) => (i && i.message) || "the device was lost"),
	destroyDevice: () => device.destroy(),
	createTexture: (dimension, w, h, n, format, usage) =>
		put(device.createTexture({dimension, size: [w, h, n], format, usage, mipLevelCount: 1, sampleCount: 1})),
	createView: (t, dimension) => put(objs[t].createView({dimension})),
	createSampler: (addressModeU, addressModeV, addressModeW, magFilter, minFilter, compare) => {
		const d = {addressModeU, addressModeV, addressModeW, magFilter, minFilter};
		if (compare) d.compare = compare;
		return put(device.createSampler(d));
	},
	// writeTexture uploads n bytes of the command bytes (load) to the
	// region of texture t, rows bpr bytes apart.
	writeTexture: (t, x, y, z, w, h, n, bpr, len) =>
		device.queue.writeTexture({texture: objs[t], origin: [x, y, z]}, cmdBytes.subarray(0, len), {offset: 0, bytesPerRow: bpr, rowsPerImage: h}, [w, h, n]),
	// readTexture copies the region of texture t into the staging buffer
	// s, rows bpr bytes apart, and maps m bytes of it, as read does.
	readTexture: (t, x, y, z, w, h, n, bpr, s, m) => {
		const sb = objs[s];
		const enc = device.createCommandEncoder();
		enc.copyTextureToBuffer({texture: objs[t], origin: [x, y, z]}, {buffer: sb, offset: 0, bytesPerRow: bpr, rowsPerImage: h}, [w, h, n]);
		device.queue.submit([enc.finish()]);
		return sb.mapAsync(GPUMapMode.READ, 0, m).then(() => {
			const out = new Uint8Array(sb.getMappedRange(0, m).slice(0));
			sb.unmap();
			return out;
		});
	},
};
`

// jsRuntime is a device's JavaScript side (runtimeJS). Its methods are
// looked up once, at Open.
type jsRuntime struct {
	obj                                                     js.Value
	put, del, get, cmdBuf, flush, graph, newBuffer, destroy js.Value
	write, copy, read, layout, bindGroup, compile, done     js.Value
	destroyDevice                                           js.Value
	createTexture, createView, createSampler                js.Value
	writeTexture, readTexture                               js.Value
	cmdBytes                                                js.Value // the Uint8Array cmdBuf last returned
	cmdCap                                                  int
}

// newRuntime makes device's JavaScript side.
func newRuntime(device js.Value) *jsRuntime {
	mk := js.Global().Get("Function").New("device", runtimeJS)
	o := mk.Invoke(device)
	r := &jsRuntime{obj: o}
	for _, f := range []struct {
		v    *js.Value
		name string
	}{
		{&r.put, "put"}, {&r.del, "del"}, {&r.get, "get"}, {&r.cmdBuf, "cmdBuf"}, {&r.flush, "flush"},
		{&r.graph, "graph"}, {&r.newBuffer, "newBuffer"}, {&r.destroy, "destroy"}, {&r.write, "write"},
		{&r.copy, "copy"}, {&r.read, "read"}, {&r.layout, "layout"}, {&r.bindGroup, "bindGroup"},
		{&r.compile, "compile"}, {&r.done, "done"}, {&r.destroyDevice, "destroyDevice"},
		{&r.createTexture, "createTexture"}, {&r.createView, "createView"}, {&r.createSampler, "createSampler"},
		{&r.writeTexture, "writeTexture"}, {&r.readTexture, "readTexture"},
	} {
		*f.v = o.Get(f.name)
	}
	return r
}

// load copies b into the runtime's command bytes (growing them as needed).
func (r *jsRuntime) load(b []byte) {
	if len(b) > r.cmdCap || r.cmdBytes.IsUndefined() {
		r.cmdBytes = r.cmdBuf.Invoke(len(b))
		r.cmdCap = r.cmdBytes.Get("byteLength").Int()
	}
	js.CopyBytesToJS(r.cmdBytes, b)
}

// inCallback reports whether the calling goroutine runs a js.FuncOf
// callback: the JavaScript that called it waits for it to return, so a
// promise it awaited could never resolve (the event loop is blocked on
// this very call). The runtime runs callbacks from syscall/js's
// handleEvent, which is on the stack then.
func inCallback() bool {
	var pcs [64]uintptr
	n := runtime.Callers(2, pcs[:])
	frames := runtime.CallersFrames(pcs[:n])
	for {
		f, more := frames.Next()
		if f.Function == "syscall/js.handleEvent" {
			return true
		}
		if !more {
			return false
		}
	}
}

// await waits for promise p from a goroutine and returns its value, or an
// error when it rejects (the rejection's message) or ctx is done first
// (ctx.Err(); the callbacks are released once the promise settles). Inside
// a js.FuncOf callback it refuses with callbackError instead of
// deadlocking.
func await(ctx context.Context, op string, p js.Value) (js.Value, error) {
	if inCallback() {
		return js.Value{}, callbackError(op)
	}
	type result struct {
		v   js.Value
		err string
		bad bool
	}
	ch := make(chan result, 1)
	var then, catch js.Func
	then = js.FuncOf(func(_ js.Value, args []js.Value) any {
		var v js.Value
		if len(args) > 0 {
			v = args[0]
		}
		ch <- result{v: v}
		return nil
	})
	catch = js.FuncOf(func(_ js.Value, args []js.Value) any {
		msg := "rejected"
		if len(args) > 0 {
			msg = jsMessage(args[0])
		}
		ch <- result{err: msg, bad: true}
		return nil
	})
	p.Call("then", then, catch)
	release := func() { then.Release(); catch.Release() }
	select {
	case r := <-ch:
		release()
		if r.bad {
			return js.Value{}, newError(op, ErrorTypeInternal, "%s", r.err)
		}
		return r.v, nil
	case <-ctx.Done():
		go func() { <-ch; release() }()
		return js.Value{}, ctx.Err()
	}
}

// jsMessage is a JavaScript error's message.
func jsMessage(v js.Value) string {
	if v.Type() == js.TypeObject {
		if m := v.Get("message"); m.Type() == js.TypeString {
			return m.String()
		}
	}
	return v.String()
}

// scopeError converts the text of runtimeJS's errText ("type\nmessage"),
// "" for none.
func scopeError(op, text string) error {
	if text == "" {
		return nil
	}
	typ, msg, _ := strings.Cut(text, "\n")
	t := ErrorTypeValidation
	switch typ {
	case "out-of-memory":
		t = ErrorTypeOutOfMemory
	case "internal":
		t = ErrorTypeInternal
	}
	return &Error{Op: op, Type: t, Message: "the browser's WebGPU: " + msg}
}

// catchJS runs fn, turning a JavaScript exception it throws into an
// [*Error] of op (syscall/js panics with a js.Error).
func catchJS(op string, err *error, fn func()) {
	defer func() {
		if r := recover(); r != nil {
			if je, ok := r.(js.Error); ok {
				*err = newError(op, ErrorTypeValidation, "the browser's WebGPU: %s", jsMessage(je.Value))
				return
			}
			panic(r)
		}
	}()
	fn()
}
