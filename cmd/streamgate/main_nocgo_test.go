//go:build !cgo

package main

import (
	"bytes"
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestUsageWithoutCgo(t *testing.T) {
	var out, errOut bytes.Buffer
	assert.Equal(t, 2, run(context.Background(), []string{"warmup"}, &out, &errOut))
	assert.Contains(t, errOut.String(), "built without cgo")
}

// launchCases: streamgate bench runs the launch cases in this build.
const launchCases = false

// needAdapter does nothing: without cgo no case needs one.
func needAdapter(*testing.T) {}
