// Package cacheopt is the options of the tune caches' Open
// (tune/sqlitecache and tune/webcache): one option type, which each
// package names Option, and the configuration it sets.
package cacheopt

import (
	"log/slog"

	"github.com/streamgate/streamgate/internal/low/slogwarn"
)

// An Option configures a cache's Open.
type Option interface{ apply(*Config) }

type optionFunc func(*Config)

func (f optionFunc) apply(c *Config) { f(c) }

// Config is what the options set.
type Config struct {
	Log *slog.Logger // the cache's warnings
}

// WithLogger sets Config.Log to l.
func WithLogger(l *slog.Logger) Option { return optionFunc(func(c *Config) { c.Log = l }) }

// Of returns the configuration opts set, in order, over the defaults
// (Log: warnings and above to slog.Default()). Nil options are ignored.
func Of(opts []Option) Config {
	c := Config{Log: slogwarn.New()}
	for _, o := range opts {
		if o != nil {
			o.apply(&c)
		}
	}
	if c.Log == nil {
		c.Log = slogwarn.New()
	}
	return c
}
