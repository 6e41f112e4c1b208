package bundle

import (
	"bytes"
	"fmt"
	"io"
	"slices"

	"github.com/streamgate/streamgate/tune"
)

// KernelRanger lists the entries of a kernel store: wgpu.KernelDir and
// [Bundle] are KernelRangers.
type KernelRanger interface {
	// RangeKernels calls f with each entry's key and bytes until f
	// returns false.
	RangeKernels(f func(key [32]byte, entry []byte) bool) error
}

// WriteOptions are the choices of [Write].
type WriteOptions struct {
	// Device, if not empty, keeps only the tune entries of this adapter
	// identity; the kernel entries are kept whatever it is.
	Device string
	// MadeBy says what wrote the bundle, for [Bundle.MadeBy] and
	// streamgate bundle show ("streamgate bundle export, v1.2.3").
	MadeBy string
}

// Stats says what a bundle holds, or what [Bundle.Install] copied.
type Stats struct {
	TuneEntries int      // tune entries
	Kernels     int      // kernel entries
	Bytes       int      // the bundle's size ([Write] only)
	Devices     []string // the tune entries' adapter identities, sorted ([Write] only)
}

// Write writes a bundle of tc's tune entries and kernels' entries to w
// (either may be nil: none of that kind). The same entries always make
// the same bytes: entries in key order, nothing of the time or machine
// but opts.MadeBy. Write reads everything before it writes: an entry it
// cannot bundle (a tune entry [tune.Export] refuses, a kernel entry over
// [MaxKernelEntry]), a bundle over [MaxSize], or a cache that fails its
// Range makes it write nothing and return an error.
func Write(w io.Writer, tc tune.Cache, kernels KernelRanger, opts WriteOptions) (Stats, error) {
	var st Stats
	var lines bytes.Buffer
	if tc != nil {
		// One Range of tc, so that the devices are those of the entries
		// exported, whatever stores race it.
		snap := tune.NewMemoryCache()
		seen := map[string]bool{}
		if err := tc.Range(func(k tune.CacheKey, e tune.Entry) bool {
			if opts.Device == "" || k.Device == opts.Device {
				snap.Store(k, e)
				if !seen[k.Device] {
					seen[k.Device] = true
					st.Devices = append(st.Devices, k.Device)
				}
			}
			return true
		}); err != nil {
			return Stats{}, fmt.Errorf("bundle: tune cache: %w", err)
		}
		slices.Sort(st.Devices)
		n, err := tune.Export(&lines, snap, "")
		if err != nil {
			return Stats{}, fmt.Errorf("bundle: %w", err)
		}
		st.TuneEntries = n
	}
	var ks []kernelEntry
	if kernels != nil {
		err := kernels.RangeKernels(func(key [32]byte, entry []byte) bool {
			ks = append(ks, kernelEntry{key, slices.Clone(entry)})
			return true
		})
		if err != nil {
			return Stats{}, fmt.Errorf("bundle: kernels: %w", err)
		}
		slices.SortFunc(ks, func(a, b kernelEntry) int { return bytes.Compare(a.key[:], b.key[:]) })
		ks = slices.CompactFunc(ks, func(a, b kernelEntry) bool { return a.key == b.key })
		st.Kernels = len(ks)
	}
	b, err := encode(header{MadeBy: opts.MadeBy, Devices: st.Devices, TuneEntries: st.TuneEntries, Kernels: st.Kernels}, lines.Bytes(), ks)
	if err != nil {
		return Stats{}, fmt.Errorf("bundle: %w", err)
	}
	// What Load would say, before anything is written.
	if _, err := Load(b); err != nil {
		return Stats{}, fmt.Errorf("bundle: the bundle written would not load: %w", err)
	}
	if _, err := w.Write(b); err != nil {
		return Stats{}, fmt.Errorf("bundle: %w", err)
	}
	st.Bytes = len(b)
	return st, nil
}
