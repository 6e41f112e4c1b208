package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
)

// exitInterrupted is the exit status of a command that Ctrl-C stopped:
// 128 + SIGINT, as a shell reports it.
const exitInterrupted = 130

// errInterrupted is what a step returns at the launch boundary where it
// found the command's context canceled by Ctrl-C.
var errInterrupted = errors.New("interrupted")

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

// checkOutDir reports, before any work, whether the command can write
// files into dir (which it creates, as the command would): a usage error
// names the flag.
func checkOutDir(flag, dir string) error {
	if dir == "" {
		return nil
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return &usageError{fmt.Sprintf("%s %s: %v", flag, dir, err)}
	}
	f, err := os.CreateTemp(dir, ".streamgate-probe-*")
	if err != nil {
		return &usageError{fmt.Sprintf("%s %s: not writable: %v", flag, dir, err)}
	}
	name := f.Name()
	f.Close()
	os.Remove(name)
	return nil
}
