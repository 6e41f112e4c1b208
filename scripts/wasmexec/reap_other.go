//go:build !linux && !js

package main

func becomeSubreaper() {}

// reapChildren does nothing: chromedp kills Chromium, and only Linux has
// subreapers.
func reapChildren() {}
