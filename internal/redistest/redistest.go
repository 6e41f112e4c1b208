//go:build unix

// Package redistest runs a real redis-server for tests: on a free port of
// 127.0.0.1, with its data in the test's temporary directory, stopped when
// the test ends. A test calls [Start]; without a redis-server binary it is
// skipped, or fails when STREAMGATE_REQUIRE_REDIS=1 (set by make test).
package redistest

import (
	"bufio"
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// Required reports whether a missing redis-server fails tests rather than
// skipping them: STREAMGATE_REQUIRE_REDIS=1.
func Required() bool { return os.Getenv("STREAMGATE_REQUIRE_REDIS") == "1" }

// Binary returns the path of redis-server: on PATH, else /usr/bin or
// /usr/sbin.
func Binary() (string, error) {
	if p, err := exec.LookPath("redis-server"); err == nil {
		return p, nil
	}
	for _, p := range []string{"/usr/bin/redis-server", "/usr/sbin/redis-server"} {
		if _, err := os.Stat(p); err == nil {
			return p, nil
		}
	}
	return "", fmt.Errorf("no redis-server on PATH, in /usr/bin or /usr/sbin (scripts/install-deps.sh redis installs it)")
}

// Server is one redis-server process. Its methods are for the test's
// goroutine.
type Server struct {
	t    testing.TB
	bin  string
	dir  string
	args []string
	Port int
	cmd  *exec.Cmd
	stop bool // SIGSTOP'd
}

// Start runs redis-server with args added to its command line (e.g.
// "--requirepass", "pw"), with an append-only file fsynced on every write,
// so that a server killed and restarted keeps what it acknowledged.
func Start(t testing.TB, args ...string) *Server {
	t.Helper()
	bin, err := Binary()
	if err != nil {
		if Required() {
			t.Fatalf("STREAMGATE_REQUIRE_REDIS=1: %v", err)
		}
		t.Skip(err)
	}
	s := &Server{t: t, bin: bin, dir: t.TempDir(), args: args, Port: freePort(t)}
	s.start()
	t.Cleanup(s.kill)
	return s
}

// Addr is the server's host:port.
func (s *Server) Addr() string { return net.JoinHostPort("127.0.0.1", strconv.Itoa(s.Port)) }

// URL is redis://127.0.0.1:port/db.
func (s *Server) URL(db int) string { return fmt.Sprintf("redis://%s/%d", s.Addr(), db) }

func freePort(t testing.TB) int {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

func (s *Server) start() {
	s.t.Helper()
	args := append([]string{"--port", strconv.Itoa(s.Port), "--bind", "127.0.0.1", "--dir", s.dir,
		"--save", "", "--appendonly", "yes", "--appendfsync", "always", "--daemonize", "no",
		"--logfile", filepath.Join(s.dir, "redis.log")}, s.args...)
	s.cmd = exec.Command(s.bin, args...)
	if err := s.cmd.Start(); err != nil {
		s.t.Fatalf("redis-server: %v", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	for {
		if s.ping() {
			return
		}
		select {
		case <-ctx.Done():
			log, _ := os.ReadFile(filepath.Join(s.dir, "redis.log"))
			s.t.Fatalf("redis-server on port %d did not answer in 10s; its log:\n%s", s.Port, log)
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// ping reports whether the server answers a PING (with PONG, or with an
// error such as NOAUTH: it is up).
func (s *Server) ping() bool {
	c, err := net.DialTimeout("tcp", s.Addr(), time.Second)
	if err != nil {
		return false
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(time.Second))
	if _, err := c.Write([]byte("PING\r\n")); err != nil {
		return false
	}
	line, err := bufio.NewReader(c).ReadString('\n')
	return err == nil && (strings.HasPrefix(line, "+") || strings.HasPrefix(line, "-"))
}

// Kill ends the server with SIGKILL.
func (s *Server) Kill() {
	s.t.Helper()
	s.kill()
}

func (s *Server) kill() {
	if s.cmd == nil {
		return
	}
	if s.stop {
		s.cmd.Process.Signal(syscall.SIGCONT)
		s.stop = false
	}
	s.cmd.Process.Kill()
	s.cmd.Wait()
	s.cmd = nil
}

// Restart starts the server again on the same port and data directory.
func (s *Server) Restart() {
	s.t.Helper()
	s.kill()
	s.start()
}

// Pause stops the server with SIGSTOP: connections are accepted by the
// kernel and never answered. Where /proc says (Linux), it returns once the
// server is stopped, so that nothing sent after it is answered before
// Resume.
func (s *Server) Pause() {
	s.t.Helper()
	s.cmd.Process.Signal(syscall.SIGSTOP)
	s.stop = true
	stat := fmt.Sprintf("/proc/%d/stat", s.cmd.Process.Pid)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	for {
		b, err := os.ReadFile(stat)
		if err != nil {
			return // no /proc
		}
		// pid (comm) state ...: comm may hold spaces and parentheses.
		if f := strings.Fields(string(b[strings.LastIndexByte(string(b), ')')+1:])); len(f) > 0 && (f[0] == "T" || f[0] == "t") {
			return
		}
		select {
		case <-ctx.Done():
			s.t.Fatalf("redis-server on port %d not stopped 10s after SIGSTOP", s.Port)
		case <-time.After(time.Millisecond):
		}
	}
}

// Resume continues a paused server.
func (s *Server) Resume() {
	s.cmd.Process.Signal(syscall.SIGCONT)
	s.stop = false
}
