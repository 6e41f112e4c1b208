package genrun

import "errors"

// ErrInterrupted is what a step returns at the launch or token boundary
// where it found its context ended (Ctrl-C in the terminal).
var ErrInterrupted = errors.New("interrupted")
