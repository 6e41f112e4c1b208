//go:build cgo || (js && wasm)

package wgpu

// A device's way in, shared by the desktop build and the browser's (js).

// enter read-locks the device for op, the one way into a call that
// touches wgpu objects:
//
//	leave, err := d.enter(op)
//	if err != nil {
//		return err
//	}
//	defer leave()
//
// It returns an error matching [ErrClosed] once Close has begun.
func (d *Device) enter(op string) (leave func(), err error) {
	if d.closed.Load() {
		return nil, closedError(op)
	}
	d.life.RLock()
	if d.closed.Load() {
		d.life.RUnlock()
		return nil, closedError(op)
	}
	return d.leave, nil
}
