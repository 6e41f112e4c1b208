//go:build js && wasm

package wgpu

import (
	"sync/atomic"
	"unsafe"
)

// Plain loads of atomics, for Launch's flat path in the page (launch,
// stream_js.go).
//
// Go's wasm port runs every goroutine on one thread, and its atomics are
// calls the compiler does not inline (internal/runtime/atomic marks them
// //go:noinline): about 8 ns each in Chromium, where the whole of a
// launch's Go work has about 100. On that one thread nothing can write an
// atomic's word while a goroutine reads it, so a plain load of the word
// reads what Load would, and a store through Store is seen by every later
// read. TestPlainLoads checks that these agree with Load for both values
// of each, so that a change in the layout of sync/atomic's types fails a
// test rather than read another word.

// loadBool is b.Load() on the page's one thread.
func loadBool(b *atomic.Bool) bool { return *(*uint32)(unsafe.Pointer(b)) != 0 }

// loadPointer is p.Load() on the page's one thread.
func loadPointer[T any](p *atomic.Pointer[T]) *T {
	return (*T)(*(*unsafe.Pointer)(unsafe.Pointer(p)))
}

// pageMutex is a stream's lock in the page: a mutex whose uncontended
// Lock and Unlock are a plain load and store, where a sync.Mutex's are
// two of the port's atomic calls on every launch. On the page's one
// thread, without preemption, nothing runs between Lock's test of locked
// and its store; a goroutine that finds it locked waits on wake, which
// Unlock signals when one waits (the waiter tests again: a goroutine that
// ran in between may hold it). Its zero value is unlocked.
type pageMutex struct {
	locked  bool
	waiters int
	wake    chan struct{}
}

// Lock locks m, waiting while another goroutine holds it.
func (m *pageMutex) Lock() {
	for m.locked {
		if m.wake == nil {
			m.wake = make(chan struct{}, 1)
		}
		m.waiters++
		<-m.wake
		m.waiters--
	}
	m.locked = true
}

// TryLock locks m if it is unlocked and reports whether it did; it
// never waits.
func (m *pageMutex) TryLock() bool {
	if m.locked {
		return false
	}
	m.locked = true
	return true
}

// Unlock unlocks m. Unlocking an unlocked m panics, as a sync.Mutex's
// fatal error does.
func (m *pageMutex) Unlock() {
	if !m.locked {
		panic("wgpu: Unlock of an unlocked stream lock")
	}
	m.locked = false
	if m.waiters > 0 {
		select {
		case m.wake <- struct{}{}:
		default: // a wake-up is pending
		}
	}
}
