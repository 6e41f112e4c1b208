//go:build cgo || (js && wasm)

package client_test

import (
	"testing"

	"github.com/streamgate/streamgate/internal/gputest"
	"github.com/streamgate/streamgate/internal/low/leaktest"
)

func TestMain(m *testing.M) { gputest.Main(func() int { return leaktest.Run(m.Run) }) }
