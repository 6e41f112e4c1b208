package bundle_test

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/streamgate/streamgate/tune/bundle"
)

var update = flag.Bool("update", false, "rewrite testdata/example.bundle")

// TestExampleBundle: the example's embedded bundle is the one Write makes
// today from the test entries, byte for byte (so a change of format
// fails here until -update writes it again), and it loads.
func TestExampleBundle(t *testing.T) {
	path := filepath.Join("testdata", "example.bundle")
	var buf bytes.Buffer
	_, err := bundle.Write(&buf, memCache(t, testEntries()), testKernels(), bundle.WriteOptions{MadeBy: "TestExampleBundle"})
	require.NoError(t, err)
	if *update {
		require.NoError(t, os.WriteFile(path, buf.Bytes(), 0o644))
		t.Skipf("wrote %s; the example embeds it from the next build", path)
	}
	if !bytes.Equal(buf.Bytes(), exampleBundle) {
		t.Fatalf("%s (%d bytes) is not what Write makes (%d bytes): go test ./tune/bundle -run TestExampleBundle -update", path, len(exampleBundle), buf.Len())
	}
	b, err := bundle.Load(exampleBundle)
	require.NoError(t, err)
	require.Equal(t, 3, b.TuneEntries())
}
