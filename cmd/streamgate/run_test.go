package main

import (
	"bytes"
	"context"
	"testing"
)

// runCmd runs the command line args in-process.
func runCmd(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code = run(context.Background(), args, &out, &errOut)
	return code, out.String(), errOut.String()
}
