//go:build !js

package rediscache

// errPlatform is nil where Redis can be reached: everywhere but GOOS=js
// (platform_js.go).
var errPlatform error
