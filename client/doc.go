// Package client is the launch path of streamgate: a [Client] is bound to
// one [Service] (a device) and one stream, and every launch asks the
// registry, with one lock-free read, whether that stream executes or
// discards.
package client
