//go:build js && wasm

package webcache

import "syscall/js"

// OpenStorage is Open on storage, a stand-in for localStorage.
func OpenStorage(prefix string, storage js.Value, opts ...Option) (*Cache, error) {
	return open(prefix, storage, opts)
}

// StorageKey is the storage key of k under prefix.
var StorageKey = storageKey
