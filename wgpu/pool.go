package wgpu

// tempKey is what a recycled buffer is reused for: the same size and usage.
type tempKey struct {
	size  uint64
	usage BufferUsage
}

// pooled is a recycled buffer or texture and the word the queue sets once
// the work submitted before its recycling is done.
type pooled[T any] struct {
	v       T
	done    statusWord
	waiting bool // done not yet seen set (and not yet freed)
}

// tempPool holds a device's recycled buffers and textures. All fields are
// guarded by Device.poolMu.
type tempPool struct {
	free     map[tempKey][]pooled[*Buffer]
	textures map[TextureDesc][]pooled[*Texture] // recycled textures for TempTexture (texture_pool.go)
	held     uint64                             // bytes of the buffers and textures pooled
	n        int                                // buffers and textures pooled
	limit    uint64
	hits     int64
	misses   int64
	closed   bool
	waiting  int // entries with waiting set
}

// takeReady takes from list an entry whose work is done and that was not
// released while pooled (those it drops), and returns it with the list
// left; waiting reports whether an entry is there but not yet ready. Each
// entry taken or dropped holds size bytes. Called with Device.poolMu held.
func takeReady[T any](p *tempPool, list []pooled[T], size uint64, released func(T) bool) (v T, rest []pooled[T], waiting bool) {
	var zero T
	for i := 0; i < len(list); i++ {
		e := &list[i]
		if e.waiting {
			if e.done.load() == 0 {
				waiting = true
				continue
			}
			e.done.free()
			e.waiting = false
			p.waiting--
		}
		v = e.v
		list[i] = list[len(list)-1]
		list[len(list)-1] = pooled[T]{}
		list = list[:len(list)-1]
		p.held -= size
		p.n--
		if released(v) { // released while pooled: forget it
			v = zero
			i--
			continue
		}
		p.hits++
		return v, list, false
	}
	return zero, list, waiting
}

// put adds v, of size bytes, to list, to be ready once st is set. Called
// with Device.poolMu held.
func put[T any](p *tempPool, list []pooled[T], v T, size uint64, st statusWord) []pooled[T] {
	p.held += size
	p.n++
	p.waiting++
	return append(list, pooled[T]{v: v, done: st, waiting: true})
}

// abandonAll forgets every entry of lists, abandoning the words still
// waiting. Called with Device.poolMu held.
func abandonAll[K comparable, T any](lists map[K][]pooled[T]) {
	for k, list := range lists {
		for _, e := range list {
			if e.waiting {
				e.done.abandon()
			}
		}
		delete(lists, k)
	}
}

// TempBuffer returns a buffer of size bytes and the given usage (0 means
// [BufferUsageDefault]) for transient use: one that [Buffer.Recycle] handed
// back, of exactly that size and usage, once the queue has finished all
// the work submitted before it was recycled, or else a new one from
// [Device.NewBuffer]. Its contents are undefined (those of its last use);
// [Buffer.Clear] zeroes it.
//
// Reuse is by exact size, not by a rounded size class: launches bind whole
// buffers, so a larger buffer would change what a kernel that reads
// arrayLength computes. A loop that makes the same transient buffers each
// step reuses them all after its first step ([Device.Stats] counts hits
// and misses).
//
// The rule that keeps reuse safe: Recycle submits the pending launches of
// every stream that binds the buffer and asks the queue to signal once all
// submitted work is done; TempBuffer hands the buffer out again only after
// that signal. A launch recorded before Recycle therefore never sees the
// next user's writes. TempBuffer never waits for the signal: until it
// comes it makes a new buffer instead.
func (d *Device) TempBuffer(size uint64, usage BufferUsage) (*Buffer, error) {
	if d == nil {
		return nil, nilDeviceError("TempBuffer")
	}
	const op = "TempBuffer"
	if usage == 0 {
		usage = BufferUsageDefault
	}
	key := tempKey{size, usage}
	if b, err := takeOrMiss(d, op, key, d.takeTemp); b != nil || err != nil {
		return b, err
	}
	return d.NewBuffer(size, usage)
}

// takeOrMiss takes a pooled object of key with take, polling the queue
// once when the one there is not ready yet (to let the queue report
// finished work) and taking again; when none is taken it counts a miss
// and returns nil, for the caller to make a new one.
func takeOrMiss[K any, T any](d *Device, op string, key K, take func(op string, key K) (*T, bool, error)) (*T, error) {
	for try := 0; ; try++ {
		v, waiting, err := take(op, key)
		if err != nil || v != nil {
			return v, err
		}
		if !waiting || try > 0 {
			break
		}
		if err := d.poll(op, false); err != nil {
			return nil, err
		}
	}
	d.poolMu.Lock()
	d.temp.misses++
	d.poolMu.Unlock()
	return nil, nil
}

// takeTemp takes a ready buffer for key from the pool; waiting reports
// whether one is there but not yet ready.
func (d *Device) takeTemp(op string, key tempKey) (b *Buffer, waiting bool, err error) {
	leave, err := d.enter(op)
	if err != nil {
		return nil, false, err
	}
	defer leave()
	d.poolMu.Lock()
	defer d.poolMu.Unlock()
	p := &d.temp
	b, p.free[key], waiting = takeReady(p, p.free[key], key.size, func(b *Buffer) bool { return b.released.Load() })
	if b != nil {
		b.recycled.Store(false)
	}
	return b, waiting, nil
}

// Recycle hands b back to its device's pool for [Device.TempBuffer] to
// reuse, once the work submitted so far is done; b must not be used after
// (uploads, read-backs and copies of b return an error until TempBuffer
// hands it out again; a launch binding it is the caller's bug, as a use
// after Release would be). Recycle first submits the pending launches of
// the streams that bind b. When the pool already holds its byte limit, b
// is released instead. Recycling a nil, released or recycled buffer, or
// one of a closed device, does nothing.
func (b *Buffer) Recycle() {
	if b == nil {
		return
	}
	d := b.d
	if !d.recycle(b) {
		b.Release()
	}
}

// recycle puts b in the pool. It reports false when the pool is full or
// closed and b must be released instead, and true when b was pooled or
// there was nothing to do (b released or already recycled, device closed).
func (d *Device) recycle(b *Buffer) (handled bool) {
	const op = "Recycle"
	leave, err := d.enter(op)
	if err != nil {
		return true
	}
	defer leave()
	if b.released.Load() || b.recycled.Swap(true) {
		return true
	}
	b.gen.Add(1)
	d.bufEpoch.Add(1) // every graph checks its buffers again
	b.flushUsers(op)  // errors belong to those streams' launches
	d.poolMu.Lock()
	defer d.poolMu.Unlock()
	p := &d.temp
	if p.closed || p.held+b.size > p.limit {
		b.recycled.Store(false)
		return false
	}
	st := d.reuseSignal()
	key := tempKey{b.size, b.usage}
	p.free[key] = put(p, p.free[key], b, b.size, st)
	return true
}

// closeTemp empties the pool (Close releases its buffers with the others)
// and frees or abandons the words of its entries. Called by Close with
// d.life write-locked, after its last poll.
func (d *Device) closeTemp() {
	d.poolMu.Lock()
	defer d.poolMu.Unlock()
	p := &d.temp
	p.closed = true
	abandonAll(p.free)
	abandonAll(p.textures)
	p.held, p.n, p.waiting = 0, 0, 0
}
