// Command nocgo opens a WebGPU device and prints what happened: built with
// CGO_ENABLED=0 it must compile and print the error that names cgo
// (make lint runs it so).
package main

import (
	"errors"
	"fmt"
	"os"

	"github.com/streamgate/streamgate/wgpu"
)

func main() {
	d, err := wgpu.Open(wgpu.Options{})
	if err != nil {
		fmt.Println(err)
		if errors.Is(err, wgpu.ErrNoCgo) {
			os.Exit(3)
		}
		os.Exit(1)
	}
	defer d.Close()
	fmt.Println("opened", d.Info().Name)
}
