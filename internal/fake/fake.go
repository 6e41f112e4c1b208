// Package fake is the in-memory gpu.Service our own tests use. It moved to
// the public test kit, package streamgatetest; these names keep the
// package's tests compiling.
package fake

import "github.com/streamgate/streamgate/streamgatetest"

// Service is [streamgatetest.Service].
type Service = streamgatetest.Service

// Buffer is [streamgatetest.Buffer].
type Buffer = streamgatetest.Buffer

// Launch is [streamgatetest.Launch].
type Launch = streamgatetest.Launch

// New returns [streamgatetest.NewService]().
func New() *Service { return streamgatetest.NewService() }
