//go:build js && wasm

package wgpu

import (
	"context"
	"syscall/js"
)

// bufHandle is a Buffer's handle: the GPUBuffer's index in the device's
// JS table (0 names none).
type bufHandle = int

// pendingRead is a read-back in flight: the promise of the staging copy's
// bytes (undefined when nothing was started).
type pendingRead = js.Value

// newBufHandle creates the page's GPUBuffer for [Device.NewBuffer].
func (d *Device) newBufHandle(op string, size uint64, usage BufferUsage) (ref bufHandle, err error) {
	catchJS(op, &err, func() { ref = d.rt.newBuffer.Invoke(float64(size), int(usage)).Int() })
	return ref, err
}

// checkWebGPUUsage checks WebGPU's rule that BufferUsageMapRead goes only
// with BufferUsageCopyDst and BufferUsageMapWrite only with
// BufferUsageCopySrc, and that usage has no unknown bits: the browser
// would make an invalid buffer, and say so only later.
func checkWebGPUUsage(op string, usage BufferUsage) error {
	switch {
	case usage&BufferUsageMapRead != 0 && usage&^(BufferUsageMapRead|BufferUsageCopyDst) != 0:
		return newError(op, ErrorTypeValidation, "usage %v: WebGPU allows MapRead only with CopyDst", usage)
	case usage&BufferUsageMapWrite != 0 && usage&^(BufferUsageMapWrite|BufferUsageCopySrc) != 0:
		return newError(op, ErrorTypeValidation, "usage %v: WebGPU allows MapWrite only with CopySrc", usage)
	case usage >= 2*BufferUsageQueryResolve:
		return newError(op, ErrorTypeValidation, "usage %v has unknown bits", usage)
	}
	return nil
}

// queueWrite uploads data to the buffer ref at offset (queue.writeBuffer);
// empty data writes nothing.
func (d *Device) queueWrite(op string, ref bufHandle, offset uint64, data []byte) (err error) {
	if len(data) == 0 {
		return nil
	}
	d.jsMu.Lock()
	catchJS(op, &err, func() {
		d.rt.load(data)
		d.rt.write.Invoke(ref, float64(offset), len(data))
	})
	d.jsMu.Unlock()
	return err
}

// startReadAt starts copying size bytes of the buffer ref at off to a
// staging buffer and mapping it: one of the page's pool (see runtimeJS's
// stgGet), which takes it back once its bytes are copied out, whether or
// not the Go side still awaits them.
func (d *Device) startReadAt(op string, ref bufHandle, off, size uint64) (p pendingRead, err error) {
	catchJS(op, &err, func() { p = d.rt.read.Invoke(ref, float64(off), float64(size)) })
	return p, err
}

// submitCopy copies size bytes of src at srcOff to dst at dstOff, on the
// GPU; src 0 clears the range of dst instead.
func (d *Device) submitCopy(op string, src bufHandle, srcOff uint64, dst bufHandle, dstOff, size uint64) (err error) {
	catchJS(op, &err, func() { d.rt.copy.Invoke(src, float64(srcOff), dst, float64(dstOff), float64(size)) })
	return err
}

// dropBindGroup drops a bind group that left the cache from the JS table.
func (d *Device) dropBindGroup(bg *bindGroup) { d.rt.del.Invoke(bg.ref) }

// dropBuffer destroys a released buffer's GPUBuffer (the browser does so
// once the work submitted with it is done).
func (d *Device) dropBuffer(ref bufHandle) { d.rt.destroy.Invoke(ref) }

// readAt reads into dst once the work before it is done: it submits the
// pending work of the streams that bind b, copies the range to a staging
// buffer, and awaits its mapping (from a goroutine; inside a js.FuncOf
// callback it refuses). err means dst was not filled; ferr is the flush's
// error.
func (b *Buffer) readAt(ctx context.Context, op string, offset uint64, dst []byte) (ferr, err error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if inCallback() {
		return nil, callbackError(op)
	}
	p, ferr, err := b.startRead(op, offset, uint64(len(dst)))
	if err != nil || p.IsUndefined() {
		return ferr, err
	}
	v, err := await(ctx, op, p)
	if err != nil {
		return nil, err
	}
	js.CopyBytesToGo(dst, v)
	return ferr, nil
}

// TempBuffer returns a buffer of size bytes and the given usage (0 means
// [BufferUsageDefault]) for transient use: one [Buffer.Recycle] handed
// back, of exactly that size and usage, or a new one. In a browser a
// recycled buffer is ready at once: every stream submits to the device's
// one queue, which runs work in order, so a launch recorded before the
// Recycle (submitted by it) runs before anything the next user submits.
func (d *Device) TempBuffer(size uint64, usage BufferUsage) (*Buffer, error) {
	const op = "TempBuffer"
	if usage == 0 {
		usage = BufferUsageDefault
	}
	if d.closed.Load() {
		return nil, closedError(op)
	}
	key := tempKey{size, usage}
	d.poolMu.Lock()
	if l := d.temp[key]; len(l) > 0 {
		b := l[len(l)-1]
		d.temp[key] = l[:len(l)-1]
		d.tempHeld--
		d.tempBytes -= size
		d.tempHits++
		d.poolMu.Unlock()
		b.recycled.Store(false)
		return b, nil
	}
	d.tempMisses++
	d.poolMu.Unlock()
	return d.NewBuffer(size, usage)
}

// Recycle hands the buffer back for [Device.TempBuffer] to reuse: it
// submits the pending work of the streams that bind it, and until
// TempBuffer hands it out again it cannot be used. Past the device's
// [Options].TempPoolBytes it is released instead.
func (b *Buffer) Recycle() {
	if b == nil {
		return
	}
	d := b.d
	leave, err := b.enter("Recycle")
	if err != nil {
		return
	}
	b.flushUsers("Recycle")
	limit := poolLimit(d.opts.TempPoolBytes, DefaultTempPoolBytes)
	d.poolMu.Lock()
	keep := d.tempBytes+b.size <= limit
	if keep {
		b.recycled.Store(true)
		b.gen.Add(1)
		d.bufEpoch.Add(1)
		k := tempKey{b.size, b.usage}
		d.temp[k] = append(d.temp[k], b)
		d.tempHeld++
		d.tempBytes += b.size
	}
	d.poolMu.Unlock()
	leave()
	if !keep {
		b.Release()
	}
}
