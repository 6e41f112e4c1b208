package bundle

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
)

// Version is the format version [Write] writes and [Load] reads.
const Version = 1

// The limits [Load] holds a bundle to; [Write] refuses to exceed them.
const (
	// MaxSize bounds a whole bundle, in bytes.
	MaxSize = 1 << 30
	// MaxHeader bounds the header, in bytes.
	MaxHeader = 1 << 20
	// MaxKernelEntry bounds one kernel entry, in bytes (the most a
	// wgpu.KernelDir reads).
	MaxKernelEntry = 64 << 20
)

// magic begins a bundle.
const magic = "streamgate bundle\n"

// Sizes of the fixed parts.
const (
	prefixSize = len(magic) + 4 + 8 // magic, version, total size
	sumSize    = sha256.Size
	keySize    = 32
)

// The errors [Load] wraps, for errors.Is; its messages say more.
var (
	// ErrNotBundle: the data is empty or does not begin as a bundle does.
	ErrNotBundle = errors.New("bundle: not a streamgate bundle")
	// ErrVersion: a bundle of another format version.
	ErrVersion = errors.New("bundle: another format version")
	// ErrDamaged: a bundle truncated, changed, or malformed inside.
	ErrDamaged = errors.New("bundle: damaged")
)

// header is the bundle's header, JSON.
type header struct {
	MadeBy      string   `json:"made_by"`      // what wrote it
	Devices     []string `json:"devices"`      // the tune entries' adapter identities, sorted, each once
	TuneEntries int      `json:"tune_entries"` // in the tune section
	Kernels     int      `json:"kernels"`      // kernel entries
}

// kernelEntry is one kernel entry of a bundle.
type kernelEntry struct {
	key   [keySize]byte
	entry []byte
}

// encode returns the bundle of h, the tune section tuneLines (JSON lines
// of tune.Export) and kernels (in key order, each key once).
func encode(h header, tuneLines []byte, kernels []kernelEntry) ([]byte, error) {
	hb, err := json.Marshal(h)
	if err != nil {
		return nil, err
	}
	if len(hb) > MaxHeader {
		return nil, fmt.Errorf("a header of %d bytes, over the %d a bundle may hold", len(hb), MaxHeader)
	}
	var b bytes.Buffer
	b.WriteString(magic)
	b.Write(binary.LittleEndian.AppendUint32(nil, Version))
	b.Write(make([]byte, 8)) // the total size, once known
	b.Write(binary.LittleEndian.AppendUint32(nil, uint32(len(hb))))
	b.Write(hb)
	b.Write(binary.LittleEndian.AppendUint64(nil, uint64(len(tuneLines))))
	b.Write(tuneLines)
	b.Write(binary.LittleEndian.AppendUint32(nil, uint32(len(kernels))))
	for _, k := range kernels {
		if len(k.entry) > MaxKernelEntry {
			return nil, fmt.Errorf("kernel %x: an entry of %d bytes, over the %d a bundle may hold", k.key[:8], len(k.entry), MaxKernelEntry)
		}
		b.Write(k.key[:])
		b.Write(binary.LittleEndian.AppendUint32(nil, uint32(len(k.entry))))
		b.Write(k.entry)
	}
	size := b.Len() + sumSize
	if size > MaxSize {
		return nil, fmt.Errorf("%d bytes, over the %d a bundle may hold", size, MaxSize)
	}
	out := b.Bytes()
	binary.LittleEndian.PutUint64(out[len(magic)+4:], uint64(size))
	sum := sha256.Sum256(out)
	return append(out, sum[:]...), nil
}

// decoded is what decode reads from a bundle.
type decoded struct {
	h         header
	tuneLines []byte
	kernels   []kernelEntry // in key order; their bytes alias the data
}

// decode checks data whole and splits it into its parts, in this order:
// the magic (ErrNotBundle), the version (ErrVersion), the total size
// against the data's (truncated or followed by more: ErrDamaged), the
// checksum (ErrDamaged), then each part's length against what is left
// and the limits (ErrDamaged).
func decode(data []byte) (*decoded, error) {
	switch {
	case len(data) == 0:
		return nil, fmt.Errorf("%w: empty (0 bytes)", ErrNotBundle)
	case !bytes.HasPrefix(data, []byte(magic)) && !bytes.HasPrefix([]byte(magic), data):
		return nil, fmt.Errorf("%w: it begins %q", ErrNotBundle, head(data))
	case len(data) < prefixSize:
		return nil, fmt.Errorf("%w: truncated: %d bytes, shorter than any bundle", ErrDamaged, len(data))
	}
	if v := binary.LittleEndian.Uint32(data[len(magic):]); v != Version {
		return nil, fmt.Errorf("%w: format version %d; this build reads version %d", ErrVersion, v, Version)
	}
	size := binary.LittleEndian.Uint64(data[len(magic)+4:])
	switch {
	case size > MaxSize:
		return nil, fmt.Errorf("%w: it says it holds %d bytes, over the %d a bundle may hold", ErrDamaged, size, MaxSize)
	case uint64(len(data)) < size:
		return nil, fmt.Errorf("%w: truncated: %d bytes of the %d it says it holds", ErrDamaged, len(data), size)
	case uint64(len(data)) > size:
		return nil, fmt.Errorf("%w: %d bytes, more than the %d it says it holds", ErrDamaged, len(data), size)
	case size < uint64(prefixSize+4+8+4+sumSize):
		return nil, fmt.Errorf("%w: it says it holds %d bytes, fewer than any bundle", ErrDamaged, size)
	}
	body, sum := data[:len(data)-sumSize], data[len(data)-sumSize:]
	if want := sha256.Sum256(body); !bytes.Equal(sum, want[:]) {
		return nil, fmt.Errorf("%w: checksum mismatch: a byte of it was changed", ErrDamaged)
	}
	r := reader{b: body, off: prefixSize}
	var d decoded
	hb, err := r.bytes("header", uint64(r.uint32()), MaxHeader)
	if err != nil {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(hb))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&d.h); err != nil {
		return nil, fmt.Errorf("%w: header: %v", ErrDamaged, err)
	}
	if d.tuneLines, err = r.bytes("tune section", r.uint64(), MaxSize); err != nil {
		return nil, err
	}
	n := r.uint32()
	if r.err != nil {
		return nil, r.err
	}
	if uint64(n) > uint64(r.left())/(keySize+4) {
		return nil, fmt.Errorf("%w: %d kernel entries, more than the %d bytes left could hold", ErrDamaged, n, r.left())
	}
	d.kernels = make([]kernelEntry, 0, n)
	for i := range int(n) {
		var k kernelEntry
		copy(k.key[:], r.next(keySize))
		if k.entry, err = r.bytes(fmt.Sprintf("kernel entry %d", i), uint64(r.uint32()), MaxKernelEntry); err != nil {
			return nil, err
		}
		if i > 0 && bytes.Compare(d.kernels[i-1].key[:], k.key[:]) >= 0 {
			return nil, fmt.Errorf("%w: kernel entry %d: keys out of order or twice", ErrDamaged, i)
		}
		d.kernels = append(d.kernels, k)
	}
	if r.left() != 0 {
		return nil, fmt.Errorf("%w: %d bytes after the last kernel entry", ErrDamaged, r.left())
	}
	return &d, nil
}

// head is the start of data, for a message.
func head(data []byte) []byte {
	return data[:min(len(data), 16)]
}

// reader reads a bundle's body in order; its first error sticks.
type reader struct {
	b   []byte
	off int
	err error
}

func (r *reader) left() int { return len(r.b) - r.off }

// next returns the next n bytes, or nil and an error when fewer are left.
func (r *reader) next(n int) []byte {
	if r.err != nil {
		return nil
	}
	if n > r.left() {
		r.err = fmt.Errorf("%w: it ends %d bytes into a field of %d", ErrDamaged, r.left(), n)
		return nil
	}
	b := r.b[r.off : r.off+n : r.off+n]
	r.off += n
	return b
}

func (r *reader) uint32() uint32 {
	b := r.next(4)
	if b == nil {
		return 0
	}
	return binary.LittleEndian.Uint32(b)
}

func (r *reader) uint64() uint64 {
	b := r.next(8)
	if b == nil {
		return 0
	}
	return binary.LittleEndian.Uint64(b)
}

// bytes returns the next n bytes of the part what, which may hold at
// most limit: an error names the part when n overruns either.
func (r *reader) bytes(what string, n uint64, limit int) ([]byte, error) {
	if r.err != nil {
		return nil, r.err
	}
	switch {
	case n > uint64(limit):
		return nil, fmt.Errorf("%w: %s of %d bytes, over the %d it may hold", ErrDamaged, what, n, limit)
	case n > uint64(r.left()):
		return nil, fmt.Errorf("%w: %s of %d bytes, more than the %d left", ErrDamaged, what, n, r.left())
	}
	return r.next(int(n)), nil
}
