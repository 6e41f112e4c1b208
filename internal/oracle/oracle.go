// Package oracle is the sequential model (the oracle) of a registry.Registry: a plain
// slice of overrides, newest last, and a process mode. It is the oracle that
// tests and fuzz targets compare the real registry against, written to be
// obviously right by reading it rather than fast.
package oracle

import (
	"cmp"
	"slices"
	"strconv"

	"github.com/streamgate/streamgate/registry"
)

// Override is one live override in the model.
type Override struct {
	ID     int
	Mode   registry.StreamMode
	Stream registry.ServiceStream
}

// Registry is the model. Its zero value is an empty registry under
// registry.ProcessExecute. It is not safe for concurrent use.
type Registry struct {
	Overrides []Override // live, oldest first
	Process   registry.ProcessMode
	nextID    int
}

// Set adds an override and returns its id.
func (m *Registry) Set(mode registry.StreamMode, s registry.ServiceStream) int {
	m.nextID++
	m.Overrides = append(m.Overrides, Override{ID: m.nextID, Mode: mode, Stream: s})
	return m.nextID
}

// Release removes the override with id, reporting whether it was live.
func (m *Registry) Release(id int) bool {
	for i, o := range m.Overrides {
		if o.ID == id {
			m.Overrides = append(m.Overrides[:i:i], m.Overrides[i+1:]...)
			return true
		}
	}
	return false
}

// Mode returns what the newest live override of s sets, or def.
func (m *Registry) Mode(s registry.ServiceStream, def registry.StreamMode) registry.StreamMode {
	for i := len(m.Overrides) - 1; i >= 0; i-- {
		if m.Overrides[i].Stream == s {
			return m.Overrides[i].Mode
		}
	}
	return def
}

// Resolve returns Mode(s, the process mode's stream mode).
func (m *Registry) Resolve(s registry.ServiceStream) registry.StreamMode {
	return m.Mode(s, m.Process.StreamMode())
}

// Live counts the live overrides that set mode.
func (m *Registry) Live(mode registry.StreamMode) int {
	n := 0
	for _, o := range m.Overrides {
		if o.Mode == mode {
			n++
		}
	}
	return n
}

// SetProcessMode sets the process mode and returns the previous one.
func (m *Registry) SetProcessMode(p registry.ProcessMode) registry.ProcessMode {
	prev := m.Process
	m.Process = p
	return prev
}

// Insert adds o as the newest override, under its own ID rather than one
// Set picks: for checkers whose override ids come from the history they
// replay. Later Sets take ids above o.ID. o.ID must not be live.
func (m *Registry) Insert(o Override) {
	m.Overrides = append(m.Overrides, o)
	m.nextID = max(m.nextID, o.ID)
}

// Clone returns a copy of m that shares nothing mutable with it.
func (m *Registry) Clone() *Registry {
	c := *m
	c.Overrides = slices.Clone(m.Overrides)
	return &c
}

// Key returns a string that is equal for two models exactly when every read
// (Mode, Resolve, Live, Process) and every later operation on them answers
// the same: the process mode and each stream's live overrides, oldest
// first, with the streams in a fixed order. How overrides of different
// streams interleave does not matter, so it is not part of the key.
func (m *Registry) Key() string {
	byStream := slices.Clone(m.Overrides)
	slices.SortStableFunc(byStream, func(a, b Override) int {
		return cmp.Or(cmp.Compare(a.Stream.Service, b.Stream.Service), cmp.Compare(a.Stream.Stream, b.Stream.Stream))
	})
	// Numbers, not fmt: porcupine keys every state it visits, and a burst
	// puts hundreds of overrides in one.
	b := make([]byte, 0, 8+24*len(byStream))
	b = append(b, "process "...)
	b = strconv.AppendUint(b, uint64(m.Process), 10)
	b = append(b, ';')
	for _, o := range byStream {
		b = append(b, ' ')
		b = strconv.AppendUint(b, uint64(o.Stream.Service), 10)
		b = append(b, '/')
		b = strconv.AppendUint(b, uint64(o.Stream.Stream), 10)
		b = append(b, ":#"...)
		b = strconv.AppendInt(b, int64(o.ID), 10)
		b = append(b, '=')
		b = strconv.AppendUint(b, uint64(o.Mode), 10)
	}
	return string(b)
}
