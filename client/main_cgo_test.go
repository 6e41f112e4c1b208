//go:build cgo

package client_test

import (
	"testing"

	"go.uber.org/goleak"

	"github.com/streamgate/streamgate/internal/gputest"
)

func TestMain(m *testing.M) {
	gputest.Main(func() int {
		code := m.Run()
		if code == 0 {
			if err := goleak.Find(); err != nil {
				println("goleak:", err.Error())
				return 1
			}
		}
		return code
	})
}
