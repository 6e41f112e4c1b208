package wgpu

import (
	"cmp"
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"
)

// KernelDir is a [KernelStore] in a directory, one file an entry, named by
// its key: the default store, os.UserCacheDir()/streamgate/kernels. Any
// number of processes may share one directory: an entry is written to a
// temporary file and renamed into place, so that a reader finds the whole
// of one writer's entry or none, and a later store of a key wins. A
// directory it cannot write (read-only, another user's) is used read-only:
// loads work, stores return [ErrKernelDirReadOnly]. A full disk fails the
// store that met it and leaves no partial file behind.
//
// The directory holds at most [KernelDirMaxEntries] entries: the first
// store of a process that finds more removes the least recently used
// (a load marks an entry used) down to three quarters of that.
type KernelDir struct {
	dir      string
	readOnly bool

	pruneOnce sync.Once
}

// KernelDirMaxEntries bounds the entries of a [KernelDir].
const KernelDirMaxEntries = 4096

// maxKernelEntry bounds an entry a KernelDir reads: a file larger than
// this is not one of ours.
const maxKernelEntry = 64 << 20

// kernelFileSuffix ends an entry's file name.
const kernelFileSuffix = ".kernel"

// ErrKernelDirReadOnly is returned by the stores of a [KernelDir] that
// cannot write its directory.
var ErrKernelDirReadOnly = errors.New("wgpu: the kernel cache directory is read-only")

// errNilKernelDir is the error of a nil *KernelDir's stores and ranges
// (the KernelDir of an OpenKernelDir that failed); its loads are misses.
var errNilKernelDir = errors.New("wgpu: nil *KernelDir (of an OpenKernelDir that failed?)")

// DefaultKernelDir returns os.UserCacheDir()/streamgate/kernels.
func DefaultKernelDir() (string, error) {
	dir, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("wgpu: no user cache directory: %w", err)
	}
	return filepath.Join(dir, "streamgate", "kernels"), nil
}

// OpenKernelDir opens the kernel cache directory dir, making it (and its
// parents, mode 0700) if it does not exist. A directory that exists but
// cannot be written opens read-only ([KernelDir.ReadOnly]); one that
// neither exists nor can be made, or is not a directory, is an error.
func OpenKernelDir(dir string) (*KernelDir, error) {
	if dir == "" {
		return nil, errors.New("wgpu: OpenKernelDir: empty directory name")
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		fi, serr := os.Stat(dir)
		switch {
		case serr != nil:
			return nil, fmt.Errorf("wgpu: kernel cache directory: %w", err)
		case !fi.IsDir():
			return nil, fmt.Errorf("wgpu: kernel cache directory %s is not a directory", dir)
		}
		return &KernelDir{dir: dir, readOnly: true}, nil
	}
	// Without its owner's write bit a directory is read-only, for root too,
	// whom the mode does not stop: a directory shipped read-only stays
	// as it was shipped.
	fi, err := os.Stat(dir)
	if err != nil {
		return nil, fmt.Errorf("wgpu: kernel cache directory: %w", err)
	}
	if fi.Mode().Perm()&0o200 == 0 {
		return &KernelDir{dir: dir, readOnly: true}, nil
	}
	f, err := os.CreateTemp(dir, ".probe-*")
	if err != nil {
		if _, serr := os.ReadDir(dir); serr != nil {
			return nil, fmt.Errorf("wgpu: kernel cache directory: %w", serr)
		}
		return &KernelDir{dir: dir, readOnly: true}, nil
	}
	f.Close()
	os.Remove(f.Name())
	return &KernelDir{dir: dir}, nil
}

// Dir returns the directory.
func (d *KernelDir) Dir() string {
	if d == nil {
		return ""
	}
	return d.dir
}

// ReadOnly reports whether the directory could not be written when it was
// opened.
func (d *KernelDir) ReadOnly() bool { return d == nil || d.readOnly }

// path returns key's file.
func (d *KernelDir) path(key [32]byte) string {
	return filepath.Join(d.dir, hex.EncodeToString(key[:])+kernelFileSuffix)
}

// LoadKernel reads key's file. A missing or unreadable file, one that is
// not a regular file (a link, a FIFO), or one larger than any entry, is a
// miss.
func (d *KernelDir) LoadKernel(ctx context.Context, key [32]byte) ([]byte, bool) {
	if d == nil || ctx.Err() != nil {
		return nil, false
	}
	p := d.path(key)
	// Only a regular file is an entry: opening a FIFO or a device someone
	// left under an entry's name could block or never end.
	if fi, err := os.Lstat(p); err != nil || !fi.Mode().IsRegular() {
		return nil, false
	}
	f, err := os.Open(p)
	if err != nil {
		return nil, false
	}
	defer f.Close()
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() {
		return nil, false
	}
	b, err := io.ReadAll(io.LimitReader(f, maxKernelEntry+1))
	if err != nil || len(b) > maxKernelEntry {
		return nil, false
	}
	if !d.readOnly {
		now := time.Now()
		os.Chtimes(p, now, now) // marks it used; a failure only ages it
	}
	return b, true
}

// StoreKernel writes entry under key: to a temporary file in the
// directory, then renamed over key's file.
func (d *KernelDir) StoreKernel(ctx context.Context, key [32]byte, entry []byte) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if d == nil {
		return errNilKernelDir
	}
	if d.readOnly {
		return ErrKernelDirReadOnly
	}
	if len(entry) > maxKernelEntry {
		return fmt.Errorf("wgpu: kernel cache entry of %d bytes, more than %d", len(entry), maxKernelEntry)
	}
	d.pruneOnce.Do(d.prune)
	f, err := os.CreateTemp(d.dir, ".tmp-*")
	if err != nil {
		return fmt.Errorf("wgpu: kernel cache: %w", err)
	}
	_, werr := f.Write(entry)
	cerr := f.Close()
	if err := cmp.Or(werr, cerr); err != nil {
		os.Remove(f.Name())
		return fmt.Errorf("wgpu: kernel cache: %w", err)
	}
	if err := os.Rename(f.Name(), d.path(key)); err != nil {
		os.Remove(f.Name())
		return fmt.Errorf("wgpu: kernel cache: %w", err)
	}
	return nil
}

// RangeKernels calls f with each entry's key and bytes, in key order,
// until f returns false. Files that are not entries are skipped.
func (d *KernelDir) RangeKernels(f func(key [32]byte, entry []byte) bool) error {
	if d == nil {
		return errNilKernelDir
	}
	des, err := os.ReadDir(d.dir)
	if err != nil {
		return fmt.Errorf("wgpu: kernel cache: %w", err)
	}
	for _, de := range des {
		key, ok := kernelFileKey(de.Name())
		if !ok {
			continue
		}
		b, ok := d.LoadKernel(context.Background(), key)
		if ok && !f(key, b) {
			break
		}
	}
	return nil
}

// kernelFileKey returns the key of an entry's file name.
func kernelFileKey(name string) (key [32]byte, ok bool) {
	h, ok := strings.CutSuffix(name, kernelFileSuffix)
	if !ok || len(h) != 64 {
		return key, false
	}
	if _, err := hex.Decode(key[:], []byte(h)); err != nil {
		return key, false
	}
	return key, true
}

// prune removes the least recently used entries when there are more than
// KernelDirMaxEntries, and temporary files a writer that died left over an
// hour ago.
func (d *KernelDir) prune() {
	des, err := os.ReadDir(d.dir)
	if err != nil {
		return
	}
	type aged struct {
		name string
		t    time.Time
	}
	var entries []aged
	for _, de := range des {
		name := de.Name()
		_, isEntry := kernelFileKey(name)
		stale := strings.HasPrefix(name, ".tmp-") || strings.HasPrefix(name, ".probe-")
		if !isEntry && !stale {
			continue
		}
		fi, err := de.Info()
		if err != nil {
			continue
		}
		if stale {
			if time.Since(fi.ModTime()) > time.Hour {
				os.Remove(filepath.Join(d.dir, name))
			}
			continue
		}
		if fi.Mode().IsRegular() {
			entries = append(entries, aged{name, fi.ModTime()})
		}
	}
	if len(entries) <= KernelDirMaxEntries {
		return
	}
	slices.SortFunc(entries, func(a, b aged) int { return a.t.Compare(b.t) })
	for _, e := range entries[:len(entries)-KernelDirMaxEntries*3/4] {
		if err := os.Remove(filepath.Join(d.dir, e.name)); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return
		}
	}
}
