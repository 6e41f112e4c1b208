package gpu

import (
	"errors"
	"fmt"
	"strings"
)

// ErrStreamClosed is matched (errors.Is) by the error a service returns
// from a call that would record work on, or capture for, a stream that
// [Service.CloseStream] retired: a retired stream stays retired, and
// nothing recreates its state. wgpu's error for it is an [*wgpu.Error] of
// type StreamClosed.
var ErrStreamClosed = errors.New("gpu: stream is closed")

// FailedLaunch is one launch a service accepted from Launch but could not
// run: the driver rejected it when its batch was submitted.
type FailedLaunch struct {
	// Seq is the launch's sequence number on its stream: the Seq-th launch
	// Launch accepted on that stream, counting from 1.
	Seq uint64
	// Kernel is the kernel's String().
	Kernel string
	// Err is the driver's error for this launch alone.
	Err error
	// Graph is the id of the graph whose replay recorded the launch (see
	// [Graph]), or 0 for a launch recorded by [Service.Launch]; Index is
	// then the launch's index in its graph, counting from 0.
	Graph uint64
	Index int
}

// LaunchError reports the launches of one stream that were accepted but did
// not run. A service returns it from the call that submitted them (a Flush,
// a Sync, a read-back, a Launch reaching the batch threshold); every other
// launch of the batch ran exactly once, in order. Match it with errors.As;
// errors.As also finds each launch's own error through Unwrap.
//
// A LaunchError is immutable once returned.
type LaunchError struct {
	Stream StreamID
	Failed []FailedLaunch // in stream order; never empty
}

// Error names each failed launch: "stream 3: launch 8 (bad(main)): ...".
func (e *LaunchError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "stream %d: %d launch", e.Stream, len(e.Failed))
	if len(e.Failed) != 1 {
		b.WriteByte('s')
	}
	b.WriteString(" did not run")
	for i, f := range e.Failed {
		if i == 8 {
			fmt.Fprintf(&b, "; and %d more", len(e.Failed)-i)
			break
		}
		if f.Graph != 0 {
			fmt.Fprintf(&b, "; launch %d (graph %d launch %d, %s): %v", f.Seq, f.Graph, f.Index, f.Kernel, f.Err)
			continue
		}
		fmt.Fprintf(&b, "; launch %d (%s): %v", f.Seq, f.Kernel, f.Err)
	}
	return b.String()
}

// Unwrap returns the failed launches' errors.
func (e *LaunchError) Unwrap() []error {
	errs := make([]error, len(e.Failed))
	for i, f := range e.Failed {
		errs[i] = f.Err
	}
	return errs
}

// FailedLaunches returns how many launches of stream err reports as not
// run, counting every [*LaunchError] in err's tree (errors.Join included).
func FailedLaunches(err error, stream StreamID) int {
	n := 0
	var walk func(error)
	walk = func(err error) {
		switch e := err.(type) {
		case nil:
		case *LaunchError:
			if e.Stream == stream {
				n += len(e.Failed)
			}
		case interface{ Unwrap() []error }:
			for _, x := range e.Unwrap() {
				walk(x)
			}
		default:
			walk(errors.Unwrap(err))
		}
	}
	walk(err)
	return n
}
