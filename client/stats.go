package client

import (
	"fmt"
	"maps"
	"sync"
	"sync/atomic"
	"weak"

	"github.com/streamgate/streamgate/gpu"
)

// counters are a client's Stats, in an allocation of their own: the
// process-wide list keeps them after the client is collected, so
// [ServiceStats] never goes down.
type counters struct {
	executed, discarded, compiledNow, queued, batchCompiled, failed atomic.Uint64
	captured, replays, replayedLaunches, discardedReplays           atomic.Uint64
}

func (c *counters) load() Stats {
	return Stats{
		Executed:      c.executed.Load(),
		Discarded:     c.discarded.Load(),
		CompiledNow:   c.compiledNow.Load(),
		Queued:        c.queued.Load(),
		BatchCompiled: c.batchCompiled.Load(),
		Failed:        c.failed.Load(),

		Captured:         c.captured.Load(),
		Replays:          c.replays.Load(),
		ReplayedLaunches: c.replayedLaunches.Load(),
		DiscardedReplays: c.discardedReplays.Load(),
	}
}

// String formats s on one line, every count named: "executed=21
// discarded=1 compiled_now=0 queued=1 batch_compiled=1 failed=0", and, when
// the client captured or replayed a graph, " captured=51 replays=10
// replayed_launches=510 discarded_replays=1".
func (s Stats) String() string {
	out := fmt.Sprintf("executed=%d discarded=%d compiled_now=%d queued=%d batch_compiled=%d failed=%d",
		s.Executed, s.Discarded, s.CompiledNow, s.Queued, s.BatchCompiled, s.Failed)
	if s.Captured != 0 || s.Replays != 0 || s.DiscardedReplays != 0 {
		out += fmt.Sprintf(" captured=%d replays=%d replayed_launches=%d discarded_replays=%d",
			s.Captured, s.Replays, s.ReplayedLaunches, s.DiscardedReplays)
	}
	return out
}

// add returns s + t, count by count.
func (s Stats) add(t Stats) Stats {
	return Stats{
		Executed:      s.Executed + t.Executed,
		Discarded:     s.Discarded + t.Discarded,
		CompiledNow:   s.CompiledNow + t.CompiledNow,
		Queued:        s.Queued + t.Queued,
		BatchCompiled: s.BatchCompiled + t.BatchCompiled,
		Failed:        s.Failed + t.Failed,

		Captured:         s.Captured + t.Captured,
		Replays:          s.Replays + t.Replays,
		ReplayedLaunches: s.ReplayedLaunches + t.ReplayedLaunches,
		DiscardedReplays: s.DiscardedReplays + t.DiscardedReplays,
	}
}

// tracked is every client of the process, weakly: a client the program
// drops leaves the list once the garbage collector has collected it, and
// its counts move into retired.
var tracked struct {
	mu      sync.Mutex              // guards the fields below
	live    []trackedClient         // clients not known to be collected
	sweepAt int                     // sweep when live reaches this length
	retired map[gpu.ServiceID]Stats // the final counts of collected clients
}

type trackedClient struct {
	svc   gpu.ServiceID
	stats *counters
	alive weak.Pointer[Client]
}

// track adds c to the process-wide list. It costs a lock and, amortized,
// a walk of the list: client creation is not on a launch path.
func track(c *Client) {
	tracked.mu.Lock()
	defer tracked.mu.Unlock()
	if len(tracked.live) >= tracked.sweepAt {
		sweepLocked()
		tracked.sweepAt = max(64, 2*len(tracked.live))
	}
	tracked.live = append(tracked.live, trackedClient{svc: c.key.Service, stats: c.stats, alive: weak.Make(c)})
}

// sweepLocked moves the counts of collected clients into retired.
func sweepLocked() {
	kept := tracked.live[:0]
	for _, tc := range tracked.live {
		if tc.alive.Value() != nil {
			kept = append(kept, tc)
			continue
		}
		if tracked.retired == nil {
			tracked.retired = map[gpu.ServiceID]Stats{}
		}
		tracked.retired[tc.svc] = tracked.retired[tc.svc].add(tc.stats.load())
	}
	clear(tracked.live[len(kept):])
	tracked.live = kept
}

// ServiceStats returns, for each service any client of this process was
// bound to, the sum of the [Stats] of all its clients: live, closed and
// collected ones. Each count only grows, so it suits a monitoring counter
// (package metrics publishes it). Like [Client.Stats], the counts are not
// read at one instant under concurrent launches. It is safe for concurrent
// use; it takes a process-wide lock and walks every live client.
func ServiceStats() map[gpu.ServiceID]Stats {
	tracked.mu.Lock()
	defer tracked.mu.Unlock()
	sweepLocked()
	out := maps.Clone(tracked.retired)
	if out == nil {
		out = map[gpu.ServiceID]Stats{}
	}
	for _, tc := range tracked.live {
		out[tc.svc] = out[tc.svc].add(tc.stats.load())
	}
	return out
}
