//go:build unix

package rediscache_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/streamgate/streamgate/internal/redistest"
	"github.com/streamgate/streamgate/tune"
	"github.com/streamgate/streamgate/tune/rediscache"
)

// TestOpenStateFromMethods: whether Redis answered Open's ping, and with
// what, is read from OpenErr and OpenAnswered: a server that is up, one
// that answers with an error (a database number out of range, a wrong
// password), and one that is not there.
func TestOpenStateFromMethods(t *testing.T) {
	srv := redistest.Start(t, "--requirepass", "pw")
	down := redistest.Start(t)
	down.Kill()
	for _, tc := range []struct {
		name         string
		url          string
		wantErr      bool
		wantAnswered bool
	}{
		{"up", fmt.Sprintf("redis://:pw@%s/0", srv.Addr()), false, true},
		{"db out of range", fmt.Sprintf("redis://:pw@%s/99", srv.Addr()), true, true},
		{"wrong password", fmt.Sprintf("redis://:nope@%s/0", srv.Addr()), true, true},
		{"nothing listening", down.URL(0), true, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := open(t, tc.url, tune.NewMemoryCache(), rediscache.WithLogger(new(logBuf).logger()))
			t.Logf("OpenErr() = %v, OpenAnswered() = %v", c.OpenErr(), c.OpenAnswered())
			assert.Equal(t, tc.wantErr, c.OpenErr() != nil, "OpenErr() = %v", c.OpenErr())
			assert.Equal(t, tc.wantAnswered, c.OpenAnswered())
			assert.Equal(t, tc.wantErr, c.Down(), "a failed ping at open marks Redis down")
		})
	}
}

// TestSilencedWarnings: each warning WithSilenced names is left out of the
// log, and the state it reports is read from the methods instead; a
// warning not named is still logged.
func TestSilencedWarnings(t *testing.T) {
	srv := redistest.Start(t)
	down := redistest.Start(t)
	down.Kill()
	k := tune.CacheKey{Device: "d", Key: "k", Candidates: "c"}
	// run opens a cache on url, stores, ranges, kills srv if asked, stores
	// again and closes, and returns the log.
	run := func(url string, kill bool, opts ...rediscache.Option) (string, *rediscache.Cache) {
		var logs logBuf
		c, err := rediscache.Open(url, tune.NewMemoryCache(), append(opts, rediscache.WithLogger(logs.logger()))...)
		require.NoError(t, err)
		require.NoError(t, c.Store(k, entry("a")))
		if kill {
			srv.Kill()
			require.NoError(t, c.Store(k, entry("b")))
		}
		require.NoError(t, c.Range(func(tune.CacheKey, tune.Entry) bool { return true }))
		require.NoError(t, c.StoreKernel(context.Background(), kernelKey("k"), []byte("x")))
		require.NoError(t, c.Close())
		return logs.String(), c
	}
	const (
		openMsg  = `op=open`
		outage   = `Redis unavailable; tuning from the local cache`
		rangeMsg = `Range lists the local cache only`
		closeMsg = `closing with stores Redis never got`
	)

	logs, _ := run(down.URL(0), false)
	assert.Contains(t, logs, openMsg)
	assert.Contains(t, logs, rangeMsg)
	assert.Contains(t, logs, closeMsg)
	logs, c := run(down.URL(0), false, rediscache.WithSilenced(rediscache.WarnOpen|rediscache.WarnRangeLocal|rediscache.WarnClosePending))
	assert.Empty(t, logs)
	assert.Error(t, c.OpenErr())
	assert.Equal(t, 2, c.Pending(), "the entry and the kernel never reached Redis")

	logs, _ = run(srv.URL(0), true, rediscache.WithSilenced(rediscache.WarnOpen|rediscache.WarnClosePending))
	assert.Equal(t, 1, strings.Count(logs, outage), "an outage after open is not silenced by WarnOpen: %s", logs)
	srv.Restart()
	logs, c = run(srv.URL(0), true, rediscache.WithSilenced(rediscache.WarnOutage|rediscache.WarnRangeLocal|rediscache.WarnClosePending))
	assert.Empty(t, logs)
	assert.NoError(t, c.OpenErr())
	assert.True(t, c.Down())
}
