package tune

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"

	_ "modernc.org/sqlite" // the pure-Go SQLite driver: tune builds without cgo
)

// CacheVersion is the format version of cached entries. Changing it makes
// every earlier entry a miss.
const CacheVersion = 1

// Entry is one cached tune: the ranking of a key's candidates, best first.
type Entry struct {
	Ranking []string  // candidate names, best first; Ranking[0] is the winner
	Timing  string    // how samples were timed: "gpu" or "wall"
	Created time.Time // when it was measured
}

// Cache remembers tune results across runs. Implementations are safe for
// concurrent use.
type Cache interface {
	// Load returns the entry stored under key.
	Load(key string) (e Entry, ok bool)
	// Store saves e under key, replacing any earlier entry.
	Store(key string, e Entry) error
	// Delete forgets key.
	Delete(key string) error
	// Close releases the cache.
	Close() error
}

// DefaultCachePath returns os.UserCacheDir()/streamgate/tune.db.
func DefaultCachePath() (string, error) {
	dir, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("tune: no user cache directory: %w", err)
	}
	return filepath.Join(dir, "streamgate", "tune.db"), nil
}

// OpenCache opens the SQLite cache at path, creating it and its directory if
// needed. The database runs in WAL mode with a busy timeout, so several
// processes may use one file at once; each store is one transaction, so a
// crash mid-write never loses an entry already stored.
//
// If the file is corrupt or unreadable, or its directory read-only, it
// returns an in-memory cache and a non-nil warning saying why: the tune
// still works, it is just not remembered.
func OpenCache(path string) (c Cache, warning error) {
	sc, err := openSQLite(path)
	if err != nil {
		return NewMemoryCache(), fmt.Errorf("tune: cache %s unusable, tuning without a persistent cache: %w", path, err)
	}
	return sc, nil
}

// sqliteCache is a Cache in one SQLite file.
type sqliteCache struct {
	db *sql.DB
}

func openSQLite(path string) (*sqliteCache, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, err
	}
	dsn := "file:" + path + "?_pragma=busy_timeout(10000)&_pragma=journal_mode(WAL)&_pragma=synchronous(NORMAL)&_txlock=immediate"
	db, err := sql.Open("sqlite", dsn)
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	if _, err := db.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS tune (
		key     TEXT PRIMARY KEY,
		value   TEXT NOT NULL,
		created INTEGER NOT NULL
	)`); err != nil {
		db.Close()
		return nil, err
	}
	// A file that opens but is damaged fails here rather than on first use.
	var check string
	if err := db.QueryRowContext(ctx, `PRAGMA quick_check`).Scan(&check); err != nil {
		db.Close()
		return nil, err
	}
	if check != "ok" {
		db.Close()
		return nil, fmt.Errorf("integrity check: %s", check)
	}
	return &sqliteCache{db: db}, nil
}

func (c *sqliteCache) Load(key string) (Entry, bool) {
	var value string
	err := c.db.QueryRow(`SELECT value FROM tune WHERE key = ?`, key).Scan(&value)
	if err != nil {
		return Entry{}, false
	}
	var e Entry
	if json.Unmarshal([]byte(value), &e) != nil || len(e.Ranking) == 0 {
		return Entry{}, false
	}
	return e, true
}

func (c *sqliteCache) Store(key string, e Entry) error {
	value, err := json.Marshal(e)
	if err != nil {
		return err
	}
	tx, err := c.db.Begin()
	if err != nil {
		return fmt.Errorf("tune: cache store: %w", err)
	}
	defer tx.Rollback()
	if _, err := tx.Exec(`INSERT INTO tune (key, value, created) VALUES (?, ?, ?)
		ON CONFLICT(key) DO UPDATE SET value = excluded.value, created = excluded.created`,
		key, string(value), e.Created.Unix()); err != nil {
		return fmt.Errorf("tune: cache store: %w", err)
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("tune: cache store: %w", err)
	}
	return nil
}

func (c *sqliteCache) Delete(key string) error {
	if _, err := c.db.Exec(`DELETE FROM tune WHERE key = ?`, key); err != nil {
		return fmt.Errorf("tune: cache delete: %w", err)
	}
	return nil
}

func (c *sqliteCache) Close() error { return c.db.Close() }

// memoryCache is a Cache in a map: what a process tunes with when it has no
// usable file.
type memoryCache struct {
	mu sync.Mutex       // guards m
	m  map[string]Entry // key → entry
}

// NewMemoryCache returns an empty cache that lives as long as the process.
func NewMemoryCache() Cache { return &memoryCache{m: map[string]Entry{}} }

func (c *memoryCache) Load(key string) (Entry, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.m[key]
	return e, ok
}

func (c *memoryCache) Store(key string, e Entry) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.m[key] = e
	return nil
}

func (c *memoryCache) Delete(key string) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.m, key)
	return nil
}

func (c *memoryCache) Close() error { return nil }
