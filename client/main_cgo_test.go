//go:build cgo || (js && wasm)

package client_test

import (
	"testing"

	"github.com/streamgate/streamgate/internal/gputest"
)

func TestMain(m *testing.M) { gputest.Main(func() int { return gputest.RunLeakChecked(m) }) }
