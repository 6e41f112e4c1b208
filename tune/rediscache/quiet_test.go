//go:build unix

package rediscache_test

import (
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/streamgate/streamgate/internal/redistest"
	"github.com/streamgate/streamgate/tune"
	"github.com/streamgate/streamgate/tune/rediscache"
)

// goRedisLine is a line that go-redis's own logger prints to stderr.
var goRedisLine = regexp.MustCompile(`(?m)^redis: \d{4}/\d\d/\d\d .*$`)

// TestQuietWhileDown: a cache whose Redis is down, refused or speaking
// another protocol leaves stderr to its own warnings: go-redis prints
// nothing there, at open or while the cache waits for Redis (several
// pings), in a child process whose stderr is all there is to read.
func TestQuietWhileDown(t *testing.T) {
	srv := redistest.Start(t)
	down := redistest.Start(t)
	down.Kill()
	for _, tc := range []struct{ name, url string }{
		{"refused", down.URL(0)},
		{"TLS to a plain server", strings.Replace(srv.URL(0), "redis://", "rediss://", 1)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			cmd := exec.Command(os.Args[0], "-test.run=^$")
			cmd.Env = append(os.Environ(), "STREAMGATE_REDIS_QUIET_CHILD="+tc.url)
			var stderr strings.Builder
			cmd.Stderr = &stderr
			require.NoError(t, cmd.Run(), "stderr:\n%s", &stderr)
			t.Logf("the child's stderr:\n%s", &stderr)
			assert.Contains(t, stderr.String(), "Redis unavailable", "the cache's own warning")
			assert.Empty(t, goRedisLine.FindAllString(stderr.String(), -1), "go-redis's lines")
		})
	}
}

// quietChild is the child of TestQuietWhileDown: it uses a cache on url,
// which does not answer, for long enough that the cache pings it a few
// times.
func quietChild(url string) int {
	c, err := rediscache.Open(url, tune.NewMemoryCache(), rediscache.WithLogger(slog.New(slog.NewTextHandler(os.Stderr, nil))))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	k := tune.CacheKey{Device: "d", Key: "k", Candidates: "c"}
	for i := range 3 {
		if err := c.Store(k, entry(fmt.Sprint(i))); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		c.Load(k)
	}
	c.Range(func(tune.CacheKey, tune.Entry) bool { return true })
	time.Sleep(3 * 500 * time.Millisecond) // three of the flusher's pings
	if err := c.Close(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return 0
}
