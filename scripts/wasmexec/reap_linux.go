package main

import (
	"os"
	"strconv"
	"strings"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// becomeSubreaper makes the runner the parent of the processes that
// Chromium's processes leave when they die (its crashpad handler, zygotes):
// without it they go to PID 1, which in a container may never reap them.
func becomeSubreaper() { unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) }

// reapChildren kills the runner's children that are still alive and waits
// for all of them, for at most a second.
func reapChildren() {
	deadline := time.Now().Add(time.Second)
	for time.Now().Before(deadline) {
		for _, pid := range children() {
			syscall.Kill(pid, syscall.SIGKILL)
		}
		var ws syscall.WaitStatus
		pid, err := syscall.Wait4(-1, &ws, syscall.WNOHANG, nil)
		if err == syscall.ECHILD {
			return
		}
		if pid <= 0 {
			time.Sleep(5 * time.Millisecond)
		}
	}
}

// children lists the processes whose parent is the runner.
func children() []int {
	self := os.Getpid()
	ents, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	var pids []int
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue
		}
		// pid (comm) state ppid ...: comm may hold spaces, so split after ')'.
		s := string(b)
		i := strings.LastIndexByte(s, ')')
		if i < 0 {
			continue
		}
		f := strings.Fields(s[i+1:])
		if len(f) > 1 && f[1] == strconv.Itoa(self) {
			pids = append(pids, pid)
		}
	}
	return pids
}
