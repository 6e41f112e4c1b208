package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"

	"github.com/streamgate/streamgate/internal/workload/genrun"
)

// exitInterrupted is the exit status of a command that Ctrl-C stopped:
// 128 + SIGINT, as a shell reports it.
const exitInterrupted = 130

// errInterrupted is what a step returns at the launch boundary where it
// found the command's context canceled by Ctrl-C.
var errInterrupted = genrun.ErrInterrupted

// interruptContext returns a context that the first Ctrl-C cancels; the
// second one exits the process at once with status 130. stop stops
// watching for it.
func interruptContext() (ctx context.Context, stop func()) {
	ctx, cancel := context.WithCancel(context.Background())
	sig := make(chan os.Signal, 2)
	signal.Notify(sig, os.Interrupt)
	done := make(chan struct{})
	go func() {
		select {
		case <-sig:
		case <-done:
			return
		}
		cancel()
		fmt.Fprintln(os.Stderr, "streamgate: interrupted; stopping (Ctrl-C again to exit now)")
		select {
		case <-sig:
			fmt.Fprintln(os.Stderr, "streamgate: interrupted again: exiting now")
			os.Exit(exitInterrupted)
		case <-done:
		}
	}()
	return ctx, func() {
		signal.Stop(sig)
		close(done)
		cancel()
	}
}
