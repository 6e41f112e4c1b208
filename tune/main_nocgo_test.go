//go:build !cgo

package tune_test

import (
	"os"
	"testing"
)

func TestMain(m *testing.M) { os.Exit(testMain(m)) }
