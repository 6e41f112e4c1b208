//go:build cgo

package streamgatetest_test

import (
	"testing"

	"github.com/streamgate/streamgate/internal/gputest"
)

func TestMain(m *testing.M) { gputest.Main(func() int { return gputest.RunLeakChecked(m) }) }
