//go:build js

package rediscache

import "errors"

// ErrUnsupported is what [Open] returns in a GOOS=js build: a browser page
// cannot open the TCP connections a Redis client needs.
var ErrUnsupported = errors.New("rediscache: Redis is desktop-only: a GOOS=js (browser) build cannot open TCP connections; in a browser use tune/webcache (the page's localStorage) or tune.NewMemoryCache")

var errPlatform = ErrUnsupported
