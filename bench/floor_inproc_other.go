//go:build !(cgo && linux)

package bench

import (
	"errors"
	"runtime"
)

func openInProcessFloor([]string) error {
	return errors.New("bench: the in-process C floor is built on linux with cgo only, not " + runtime.GOOS)
}

func runInProcessFloor(int, int, int) (int64, error) { return 0, openInProcessFloor(nil) }
