package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"sync"
)

// cmdLog writes a command's warnings in its one format,
//
//	streamgate CMD: warning: MESSAGE: ERR (KEY=VALUE, ...)
//
// the library's slog records (a cache's warnings) included, through
// [cmdLog.logger]. A library warning that the command states in its own
// words is silenced at the library (rediscache.WithSilenced), which
// reports that state through methods: the log never reads its records
// back. It is safe for concurrent use.
type cmdLog struct {
	w      io.Writer // written once
	prefix string    // "streamgate CMD"; written once

	mu sync.Mutex // serializes the writes to w
}

// newCmdLog returns the log of the command cmd ("warmup"; "" for
// streamgate itself), writing to w.
func newCmdLog(cmd string, w io.Writer) *cmdLog {
	return &cmdLog{w: w, prefix: strings.TrimSpace("streamgate " + cmd)}
}

// warnf prints a warning of the command's own.
func (l *cmdLog) warnf(format string, args ...any) {
	l.mu.Lock()
	defer l.mu.Unlock()
	fmt.Fprintf(l.w, "%s: warning: %s\n", l.prefix, fmt.Sprintf(format, args...))
}

// logger returns a slog logger whose records l prints (Info and above).
func (l *cmdLog) logger() *slog.Logger { return slog.New(cmdHandler{l: l}) }

// printLocked prints r; l.mu is held.
func (l *cmdLog) printLocked(r slog.Record) {
	var b strings.Builder
	b.WriteString(l.prefix)
	b.WriteString(": ")
	switch {
	case r.Level >= slog.LevelError:
		b.WriteString("error: ")
	case r.Level >= slog.LevelWarn:
		b.WriteString("warning: ")
	}
	b.WriteString(strings.TrimPrefix(r.Message, "tune: "))
	var errText string
	var attrs []string
	r.Attrs(func(a slog.Attr) bool {
		if a.Key == "err" {
			errText = a.Value.Resolve().String()
			return true
		}
		v := a.Value.Resolve().String()
		if strings.ContainsAny(v, " =,()") || v == "" {
			v = fmt.Sprintf("%q", v)
		}
		attrs = append(attrs, a.Key+"="+v)
		return true
	})
	if errText != "" {
		b.WriteString(": ")
		b.WriteString(errText)
	}
	if len(attrs) > 0 {
		b.WriteString(" (")
		b.WriteString(strings.Join(attrs, ", "))
		b.WriteString(")")
	}
	b.WriteByte('\n')
	io.WriteString(l.w, b.String())
}

// cmdHandler is the slog.Handler of a cmdLog.
type cmdHandler struct {
	l     *cmdLog
	attrs []slog.Attr // from WithAttrs
}

func (h cmdHandler) Enabled(_ context.Context, level slog.Level) bool { return level >= slog.LevelInfo }

func (h cmdHandler) Handle(_ context.Context, r slog.Record) error {
	if len(h.attrs) > 0 {
		r = r.Clone()
		r.AddAttrs(h.attrs...)
	}
	h.l.mu.Lock()
	defer h.l.mu.Unlock()
	h.l.printLocked(r)
	return nil
}

func (h cmdHandler) WithAttrs(attrs []slog.Attr) slog.Handler {
	return cmdHandler{l: h.l, attrs: append(h.attrs[:len(h.attrs):len(h.attrs)], attrs...)}
}

// WithGroup keeps the records flat: the command's lines have no groups.
func (h cmdHandler) WithGroup(string) slog.Handler { return h }

// quietLogger drops every record: a tuner's warnings are in its Results
// too, which the command prints.
var quietLogger = slog.New(slog.DiscardHandler)
