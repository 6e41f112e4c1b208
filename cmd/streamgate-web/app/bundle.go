//go:build js && wasm

package main

import (
	"bytes"
	_ "embed"
	"encoding/base64"
	"fmt"

	"github.com/streamgate/streamgate/tune"
	"github.com/streamgate/streamgate/tune/bundle"
)

// embeddedBundle is the bundle the page starts from: its tune winners
// are behind the page's tune cache, so that a first visit, its
// localStorage empty, tunes none of the keys it holds. The file in the
// source tree is empty, for none; streamgate-web -bundle FILE builds the
// program with FILE in its place (go build -overlay). The browser
// compiles WGSL without lowering it, so only the winners matter here.
//
//go:embed embedded.bundle
var embeddedBundle []byte

// withBundle puts the embedded bundle, if there is one, behind cache and
// returns the cache to tune with and the number of tune entries the
// bundle holds. A bundle that does not load is an error: the program was
// built with a damaged one.
func withBundle(cache tune.Cache) (tune.Cache, int, error) {
	if len(embeddedBundle) == 0 {
		return cache, 0, nil
	}
	b, err := bundle.Load(embeddedBundle)
	if err != nil {
		return cache, 0, fmt.Errorf("the page's embedded bundle: %w", err)
	}
	return b.TuneCache(cache), b.TuneEntries(), nil
}

// exportBundle returns a bundle of cache's tune entries, base64: what
// streamgate-web -export-bundle saves.
func exportBundle(cache tune.Cache) (string, error) {
	var buf bytes.Buffer
	if _, err := bundle.Write(&buf, cache, nil, bundle.WriteOptions{MadeBy: "streamgate-web page"}); err != nil {
		return "", err
	}
	return base64.StdEncoding.EncodeToString(buf.Bytes()), nil
}
