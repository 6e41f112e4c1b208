package main

import (
	"fmt"
	"io"
	"os"
)

// usageFail prints a usage error of the command cmd ("" for streamgate
// itself) on one line, and where its help is on another, and returns 2.
func usageFail(stderr io.Writer, cmd, format string, args ...any) int {
	prog := "streamgate"
	if cmd != "" {
		prog += " " + cmd
	}
	fmt.Fprintf(stderr, "%s: %s\n", prog, fmt.Sprintf(format, args...))
	if cmd == "" {
		fmt.Fprintln(stderr, "see 'streamgate help'")
	} else {
		fmt.Fprintf(stderr, "see 'streamgate help %s'\n", cmd)
	}
	return 2
}

// usageError is a usage error found while opening what the flags name:
// its command exits 2.
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

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
