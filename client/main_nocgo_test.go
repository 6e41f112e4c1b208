//go:build !cgo && !(js && wasm)

package client_test

import (
	"testing"

	"go.uber.org/goleak"

	"github.com/streamgate/streamgate/internal/low/leaktest"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m, leaktest.Options()...) }
