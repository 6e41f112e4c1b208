//go:build js && wasm

package wgpu

import (
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// TestPlainLoads: the plain loads read what Load reads, for both values,
// so that a change in sync/atomic's layout fails here.
func TestPlainLoads(t *testing.T) {
	var b atomic.Bool
	for _, v := range []bool{true, false, true} {
		b.Store(v)
		if got := loadBool(&b); got != v || got != b.Load() {
			t.Fatalf("loadBool = %v after Store(%v)", got, v)
		}
	}
	type pair struct{ a, b int }
	var p atomic.Pointer[pair]
	if loadPointer(&p) != nil {
		t.Fatal("loadPointer of a zero atomic.Pointer is not nil")
	}
	for range 2 {
		x := &pair{1, 2}
		p.Store(x)
		if got := loadPointer(&p); got != x || got != p.Load() {
			t.Fatalf("loadPointer = %p, want %p", got, x)
		}
	}
	p.Store(nil)
	if loadPointer(&p) != nil {
		t.Fatal("loadPointer after Store(nil) is not nil")
	}
}

// TestPageMutex: a goroutine that finds the lock held waits until it is
// unlocked, every waiter gets it in turn, and an Unlock of an unlocked
// lock panics with a message naming it.
func TestPageMutex(t *testing.T) {
	var m pageMutex
	m.Lock()
	const waiters = 3
	got := make(chan int, waiters)
	inside := 0
	for i := range waiters {
		go func() {
			m.Lock()
			inside++
			if inside != 1 {
				t.Errorf("%d goroutines inside the lock", inside)
			}
			time.Sleep(time.Millisecond) // yields, holding it
			inside--
			m.Unlock()
			got <- i
		}()
	}
	time.Sleep(10 * time.Millisecond)
	select {
	case i := <-got:
		t.Fatalf("goroutine %d took a held lock", i)
	default:
	}
	m.Unlock()
	for range waiters {
		select {
		case <-got:
		case <-time.After(10 * time.Second):
			t.Fatal("a waiter never got the lock after Unlock")
		}
	}
	m.Lock() // free again
	m.Unlock()
	defer func() {
		if r := recover(); r == nil || !strings.Contains(r.(string), "Unlock of an unlocked") {
			t.Fatalf("Unlock of an unlocked lock: recover() = %v", r)
		}
	}()
	m.Unlock()
}

// TestPageMutexTryLock: TryLock takes an unlocked lock, and refuses a held
// one without waiting, leaving it held.
func TestPageMutexTryLock(t *testing.T) {
	var m pageMutex
	if !m.TryLock() {
		t.Fatal("TryLock of an unlocked lock = false, want true")
	}
	if m.TryLock() {
		t.Fatal("TryLock of a held lock = true, want false")
	}
	if !m.locked {
		t.Fatal("a refused TryLock unlocked the lock")
	}
	m.Unlock()
	if !m.TryLock() {
		t.Fatal("TryLock after Unlock = false, want true")
	}
	m.Unlock()
}
