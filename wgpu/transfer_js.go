//go:build js && wasm

package wgpu

import (
	"context"
	"sync/atomic"
	"syscall/js"
)

// The browser's transfers: uploads, copies and the two halves of a
// read-back, each one call into the page (jsrt_js.go), and the words a
// promise settles, which the shared waits (Sync, a read-back) wait on as
// the desktop's wait on the words its driver's callbacks write.

// jsWord is what a promise settled to. state is 0 while pending, then 1 +
// the status: mapStatusSuccess when it resolved, 1 when it rejected.
type jsWord struct {
	state atomic.Int32
	done  chan struct{} // closed once settled
	val   js.Value      // what it resolved to (a read-back's bytes, a Sync's error text)
	msg   string        // why it rejected
}

// statusWord is a word a promise settles; the zero statusWord is unset.
// It is Go memory: free and abandon leave it to the collector.
type statusWord struct{ w *jsWord }

// mapWord is a staging buffer's word, set anew by each read-back.
type mapWord = statusWord

// mapStatusSuccess is a settled word's status when its promise resolved.
const mapStatusSuccess int32 = 0

// readyWord is a word already set.
var readyWord = func() statusWord {
	w := newStatusWord()
	w.w.state.Store(1 + mapStatusSuccess)
	close(w.w.done)
	return w
}()

func newStatusWord() statusWord { return statusWord{&jsWord{done: make(chan struct{})}} }
func newMapWord() mapWord       { return newStatusWord() }

func (s statusWord) load() int32 {
	if s.w == nil {
		return 0
	}
	return s.w.state.Load()
}
func (s statusWord) free()              {}
func (s statusWord) abandon()           {}
func (s statusWord) status() statusWord { return s }

// settle sets s once promise p settles, releasing its callbacks then.
func (s statusWord) settle(p js.Value) {
	w := s.w
	var then, catch js.Func
	release := func() { then.Release(); catch.Release() }
	then = js.FuncOf(func(_ js.Value, args []js.Value) any {
		if len(args) > 0 {
			w.val = args[0]
		}
		w.state.Store(1 + mapStatusSuccess)
		close(w.done)
		release()
		return nil
	})
	catch = js.FuncOf(func(_ js.Value, args []js.Value) any {
		w.msg = "rejected"
		if len(args) > 0 {
			w.msg = jsMessage(args[0])
		}
		w.state.Store(2 + mapStatusSuccess)
		close(w.done)
		release()
		return nil
	})
	p.Call("then", then, catch)
}

// err is the error a settled Sync word reports: the browser's first error
// in the device's work since the last Sync (or the promise's rejection).
func (s statusWord) err(op string) error {
	if s.load()-1 != mapStatusSuccess {
		return newError(op, ErrorTypeInternal, "the browser's WebGPU: %s", s.w.msg)
	}
	if s.w.val.Type() != js.TypeString {
		return nil
	}
	return scopeError(op, s.w.val.String())
}

// mapStatusName says why a staging buffer's mapping failed.
func mapStatusName(int32) string { return "the browser rejected it" }

// waitStatus waits until st is set or ctx is done. It must be called
// without d.life held, from a goroutine: inside a js.FuncOf callback the
// page's event loop could never settle st, and it returns an error.
func (d *Device) waitStatus(ctx context.Context, op string, st statusWord) error {
	if st.load() != 0 {
		return nil
	}
	if inCallback() {
		return callbackError(op)
	}
	select {
	case <-st.w.done:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// poll checks the device is open: in a browser the page's event loop
// delivers the queue's news whenever Go waits, with nothing to poll.
func (d *Device) poll(op string, _ bool) error {
	leave, err := d.enter(op)
	if err != nil {
		return err
	}
	leave()
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

// submitCopy copies size bytes of src at srcOff to dst at dstOff, on the
// GPU; src 0 clears the range of dst instead.
func (d *Device) submitCopy(op string, src bufHandle, srcOff uint64, dst bufHandle, dstOff, size uint64) (err error) {
	catchJS(op, &err, func() { d.rt.copy.Invoke(src, float64(srcOff), dst, float64(dstOff), float64(size)) })
	return err
}

// newStagingHandle creates a staging GPUBuffer of size bytes, MAP_READ
// and COPY_DST. Called inside d.enter.
func (d *Device) newStagingHandle(op string, size uint64) (bufHandle, error) {
	return d.newBufHandle(op, size, BufferUsageMapRead|BufferUsageCopyDst)
}

// readStart copies size bytes of src at srcOff into the staging buffer
// stg and starts mapping it; w is set once the mapping settles, with the
// bytes copied out and stg unmapped again by then (the page does both in
// the promise's own continuation). started reports whether w will be
// set. Called inside d.enter.
func (d *Device) readStart(op string, src bufHandle, srcOff uint64, stg bufHandle, size uint64, w mapWord) (started bool, err error) {
	var p js.Value
	catchJS(op, &err, func() { p = d.rt.read.Invoke(src, float64(srcOff), stg, float64(size)) })
	if err != nil {
		return false, err
	}
	w.w.state.Store(0)
	w.w.done = make(chan struct{})
	w.w.val, w.w.msg = js.Undefined(), ""
	w.settle(p)
	return true, nil
}

// readFinish copies the bytes a read-back of s brought into dst. Called
// inside d.enter once the mapping succeeded.
func (d *Device) readFinish(s *staging, dst []byte) bool {
	v := s.word.w.val
	s.word.w.val = js.Undefined()
	if v.Type() != js.TypeObject {
		return false
	}
	js.CopyBytesToGo(dst, v)
	return true
}

// unmapStaging does nothing: the page unmapped the staging buffer when it
// copied its bytes out.
func (d *Device) unmapStaging(*staging) {}
