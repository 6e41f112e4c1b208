//go:build cgo

package bench_test

import (
	"testing"

	"github.com/streamgate/streamgate/internal/gputest"
)

func TestMain(m *testing.M) { gputest.Main(m.Run) }
