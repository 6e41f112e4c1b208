// Package slogwarn is the logger the tune packages write to when the
// program gives them none: warnings and errors, to whatever slog.Default()
// is at the time of each message.
package slogwarn

import (
	"context"
	"log/slog"
)

// New returns a logger that passes records at slog.LevelWarn and above to
// slog.Default()'s handler of the moment. It is safe for concurrent use.
func New() *slog.Logger { return slog.New(warnDefault{}) }

// warnDefault is a slog.Handler that passes records at slog.LevelWarn and
// above to slog.Default()'s handler.
type warnDefault struct{}

func (warnDefault) Enabled(ctx context.Context, l slog.Level) bool {
	return l >= slog.LevelWarn && slog.Default().Handler().Enabled(ctx, l)
}

func (warnDefault) Handle(ctx context.Context, r slog.Record) error {
	return slog.Default().Handler().Handle(ctx, r)
}

func (h warnDefault) WithAttrs(as []slog.Attr) slog.Handler {
	return minWarn{slog.Default().Handler().WithAttrs(as)}
}

func (h warnDefault) WithGroup(name string) slog.Handler {
	return minWarn{slog.Default().Handler().WithGroup(name)}
}

// minWarn passes records at slog.LevelWarn and above to its handler.
type minWarn struct{ slog.Handler }

func (h minWarn) Enabled(ctx context.Context, l slog.Level) bool {
	return l >= slog.LevelWarn && h.Handler.Enabled(ctx, l)
}

func (h minWarn) WithAttrs(as []slog.Attr) slog.Handler { return minWarn{h.Handler.WithAttrs(as)} }

func (h minWarn) WithGroup(name string) slog.Handler { return minWarn{h.Handler.WithGroup(name)} }
