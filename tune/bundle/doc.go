// Package bundle keeps a device class's tune winners and kernels in one
// file, so that a program starts warm on a machine whose caches are
// empty: a first run that tunes nothing and lowers nothing.
//
// A bundle holds tune entries (a [tune.CacheKey] and its [tune.Entry],
// every byte of the key kept, in the JSON lines of [tune.Export]) and
// kernel cache entries (a 32-byte key and the bytes package wgpu wrote:
// opaque here, and verified by wgpu when it reads them back), with a
// header naming the format version, what made it and the adapter
// identities its tune entries are for. [Write] makes one from caches,
// [Load] reads one from bytes: a program can go:embed the bundle its CI
// produced (see the example), and streamgate bundle export, import and
// show do the same from the command line.
//
// The file is: the magic "streamgate bundle\n", the format version and
// the total size (little-endian uint32 and uint64), the header (JSON),
// the tune section (JSON lines), the kernel entries in key order (each a
// key, a little-endian uint32 length and the bytes), and a SHA-256 of
// everything before it. [Load] is strict: a bundle that is empty,
// foreign, of another version, truncated, damaged or malformed, or whose
// lengths overrun the data or the limits, is an error that says which;
// nothing of it is used. A kernel entry that is whole in the bundle but
// wrong for its key (another build's, a damaged copy bundled as it was)
// is refused by wgpu when it loads it, and the source is lowered again.
//
// A bundle is read-only: [Bundle.TuneCache] and [Bundle.KernelStore] put
// its entries behind a program's own caches, which take every store, and
// [Bundle.Install] copies its entries into caches that lack them.
package bundle
