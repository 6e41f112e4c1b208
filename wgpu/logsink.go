package wgpu

import (
	"context"
	"log/slog"
	"sync/atomic"
)

// driverLog is the logger of wgpu-native's messages; nil: defaultLogger.
var driverLog atomic.Pointer[slog.Logger]

// SetLogger sends wgpu-native's own messages — the driver's log, for the
// whole process; [SetLogLevel] chooses how much of it there is — to l,
// with the attribute component=wgpu-native, at the matching slog level
// (Trace as slog.LevelDebug-4). A nil l restores the default: warnings and
// errors to slog.Default(). It is safe to call at any time.
//
// Messages about one device (uncaptured WebGPU errors) go to its
// [Options].Logger instead.
func SetLogger(l *slog.Logger) { driverLog.Store(l) }

// slogLevel maps a wgpu-native level to slog's.
func slogLevel(l LogLevel) slog.Level {
	switch l {
	case LogError:
		return slog.LevelError
	case LogWarn:
		return slog.LevelWarn
	case LogInfo:
		return slog.LevelInfo
	case LogDebug:
		return slog.LevelDebug
	}
	return slog.LevelDebug - 4
}

// logger returns the device's logger: Options.Logger, else the default.
func (d *Device) logger() *slog.Logger {
	if d.opts.Logger != nil {
		return d.opts.Logger
	}
	return defaultLogger()
}

// defaultLogger is where messages go without a logger: warnings and
// errors, to whatever slog.Default() is at the time of each message.
func defaultLogger() *slog.Logger { return slog.New(minWarn{}) }

// minWarn is a slog.Handler that passes records at slog.LevelWarn and
// above to h, or to slog.Default()'s handler when h is nil.
type minWarn struct{ h slog.Handler }

func (m minWarn) handler() slog.Handler {
	if m.h == nil {
		return slog.Default().Handler()
	}
	return m.h
}

func (m minWarn) Enabled(ctx context.Context, l slog.Level) bool {
	return l >= slog.LevelWarn && m.handler().Enabled(ctx, l)
}

func (m minWarn) Handle(ctx context.Context, r slog.Record) error {
	return m.handler().Handle(ctx, r)
}

func (m minWarn) WithAttrs(as []slog.Attr) slog.Handler {
	return minWarn{m.handler().WithAttrs(as)}
}

func (m minWarn) WithGroup(name string) slog.Handler {
	return minWarn{m.handler().WithGroup(name)}
}
