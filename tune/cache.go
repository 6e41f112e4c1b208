package tune

import (
	"cmp"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"modernc.org/sqlite" // the pure-Go SQLite driver: tune builds without cgo
)

// CacheVersion is the format version of the cache file and of exported
// entries. Changing it makes every earlier entry a miss. Version 2 keys
// entries by (device, key, candidates) apart; version 1 joined them with "|".
const CacheVersion = 2

// cacheAppID is the SQLite application_id of a streamgate tune cache: "SGtu".
const cacheAppID = 0x53477475

// busyTimeout bounds how long an open or a store waits for another
// process's lock on the cache file.
const busyTimeout = 10 * time.Second

// ErrNotCache is returned by [OpenCache] for a file that is not a
// streamgate tune cache; the file is left untouched.
var ErrNotCache = errors.New("not a streamgate tune cache")

// Entry is one cached tune: the ranking of a key's candidates, best first.
type Entry struct {
	Ranking []string  `json:"ranking"` // candidate names, best first; Ranking[0] is the winner
	Timing  Timing    `json:"timing"`  // how samples were timed
	Created time.Time `json:"created"` // when it was measured
}

// Cache remembers tune results across runs. Implementations are safe for
// concurrent use by multiple goroutines.
type Cache interface {
	// Load returns the entry stored under k.
	Load(k CacheKey) (e Entry, ok bool)
	// Store saves e under k, replacing any earlier entry.
	Store(k CacheKey, e Entry) error
	// Delete forgets k.
	Delete(k CacheKey) error
	// Range calls f for each entry, in key order, until f returns false.
	// It is not a snapshot of concurrent stores; f may call the cache.
	Range(f func(k CacheKey, e Entry) bool) error
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

// A CacheOption configures [OpenCache].
type CacheOption func(*cacheConfig)

type cacheConfig struct {
	log *slog.Logger
}

// WithCacheLogger sends the cache's warnings (an entry that does not decode,
// a version-1 file upgraded) to l. By default they go to slog.Default(),
// warnings and above.
func WithCacheLogger(l *slog.Logger) CacheOption { return func(c *cacheConfig) { c.log = l } }

// OpenCache opens the SQLite cache at path, creating it and its directory if
// needed (a missing or empty file is a new cache). Several processes may
// open and use one file at once: it runs in WAL mode, each store is one
// transaction, and an open or a store waits out another process's lock
// for up to ten seconds, so a crash mid-write never loses an entry already
// stored and a busy file never loses one being stored.
//
// A file that is not a streamgate tune cache — whatever its size — is
// refused with an error wrapping [ErrNotCache] and never written to; so is
// a cache of a newer version. On any error OpenCache returns a nil Cache:
// the caller decides whether to tune with [NewMemoryCache] instead.
func OpenCache(path string, opts ...CacheOption) (Cache, error) {
	cfg := cacheConfig{log: defaultLogger()}
	for _, o := range opts {
		o(&cfg)
	}
	sc, err := openSQLite(path, cfg)
	if err != nil {
		return nil, fmt.Errorf("tune: cache %s: %w", path, err)
	}
	return sc, nil
}

// sqliteCache is a Cache in one SQLite file.
type sqliteCache struct {
	db  *sql.DB      // written once
	log *slog.Logger // written once
}

// sqliteMagic starts every SQLite database file.
const sqliteMagic = "SQLite format 3\x00"

// checkHeader refuses a non-empty file that is not an SQLite database.
func checkHeader(path string) error {
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return err
	}
	if info.IsDir() {
		return fmt.Errorf("%w: a directory", ErrNotCache)
	}
	if info.Size() == 0 {
		return nil
	}
	hdr := make([]byte, len(sqliteMagic))
	if _, err := io.ReadFull(f, hdr); err != nil || string(hdr) != sqliteMagic {
		return fmt.Errorf("%w: not an SQLite database (%d bytes); refusing to use or overwrite it", ErrNotCache, info.Size())
	}
	return nil
}

func openSQLite(path string, cfg cacheConfig) (*sqliteCache, error) {
	if err := checkHeader(path); err != nil {
		return nil, err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, err
	}
	// No journal_mode in the DSN: setting it on every connection takes an
	// exclusive lock that fails at once, busy timeout or not, while another
	// process opens the file. It is set once below.
	dsn := fmt.Sprintf("file:%s?_pragma=busy_timeout(%d)&_pragma=synchronous(NORMAL)&_txlock=immediate", path, busyTimeout.Milliseconds())
	db, err := sql.Open("sqlite", dsn)
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(context.Background(), busyTimeout)
	defer cancel()
	if err := initSQLite(ctx, db, cfg); err != nil {
		db.Close()
		return nil, err
	}
	return &sqliteCache{db: db, log: cfg.log}, nil
}

// initSQLite sets WAL mode (once per file), checks or creates the schema,
// and checks the file's integrity; each step retries while another process
// holds a lock, until ctx ends.
func initSQLite(ctx context.Context, db *sql.DB, cfg cacheConfig) error {
	steps := []func(context.Context, *sql.DB, cacheConfig) error{checkIdentity, setWAL, createSchema, quickCheck}
	for _, step := range steps {
		if err := retryBusy(ctx, func() error { return step(ctx, db, cfg) }); err != nil {
			return err
		}
	}
	return nil
}

// identity reads the file's application_id, user_version and tables in
// one statement, so from one snapshot: read apart, they could straddle
// another process's commit of a new schema.
func identity(ctx context.Context, q interface {
	QueryRowContext(context.Context, string, ...any) *sql.Row
}) (appID, version int, tables []string, err error) {
	var names sql.NullString
	err = q.QueryRowContext(ctx, `SELECT
		(SELECT application_id FROM pragma_application_id),
		(SELECT user_version FROM pragma_user_version),
		(SELECT group_concat(name, char(0)) FROM (SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name))`).Scan(&appID, &version, &names)
	if err != nil {
		return 0, 0, nil, err
	}
	if names.Valid && names.String != "" {
		tables = strings.Split(names.String, "\x00")
	}
	return appID, version, tables, nil
}

// checkIdentity refuses, before anything is written, a database that is
// neither new nor a streamgate tune cache of this or an older version.
func checkIdentity(ctx context.Context, db *sql.DB, _ cacheConfig) error {
	appID, version, tables, err := identity(ctx, db)
	if err != nil {
		return err
	}
	return identityError(appID, version, tables)
}

func identityError(appID, version int, tables []string) error {
	switch {
	case appID == cacheAppID && version > CacheVersion:
		return fmt.Errorf("cache version %d is newer than this streamgate's %d; refusing to touch it", version, CacheVersion)
	case appID == cacheAppID:
		return nil
	case appID == 0 && version == 0 && (len(tables) == 0 || slices.Equal(tables, []string{"tune"})):
		return nil // new, or a version-1 streamgate cache (no application_id yet)
	}
	return fmt.Errorf("%w: an SQLite database of another application (application_id %#x, tables %q); refusing to touch it", ErrNotCache, appID, tables)
}

// setWAL switches the file to WAL mode unless it is in it already.
func setWAL(ctx context.Context, db *sql.DB, _ cacheConfig) error {
	var mode string
	if err := db.QueryRowContext(ctx, `PRAGMA journal_mode`).Scan(&mode); err != nil {
		return err
	}
	if mode == "wal" {
		return nil
	}
	if err := db.QueryRowContext(ctx, `PRAGMA journal_mode=WAL`).Scan(&mode); err != nil {
		return err
	}
	if mode != "wal" {
		return fmt.Errorf("journal_mode is %q, want wal", mode)
	}
	return nil
}

// createSchema creates the tables of a new file, or upgrades an older
// version's (their entries are misses anyway), in one transaction.
func createSchema(ctx context.Context, db *sql.DB, cfg cacheConfig) error {
	tx, err := db.BeginTx(ctx, nil) // BEGIN IMMEDIATE: waits for other writers
	if err != nil {
		return err
	}
	defer tx.Rollback()
	appID, version, tables, err := identity(ctx, tx)
	if err != nil {
		return err
	}
	if err := identityError(appID, version, tables); err != nil {
		return err
	}
	if appID == cacheAppID && version == CacheVersion {
		return nil // another process made it, or an earlier run
	}
	if len(tables) > 0 {
		cfg.log.Warn("tune: upgrading the cache; its older entries are dropped", "from", max(version, 1), "to", CacheVersion)
	}
	for _, name := range tables {
		if _, err := tx.ExecContext(ctx, `DROP TABLE "`+name+`"`); err != nil {
			return err
		}
	}
	for _, stmt := range []string{
		`CREATE TABLE entries (
			device     TEXT NOT NULL,
			key        TEXT NOT NULL,
			candidates TEXT NOT NULL,
			value      TEXT NOT NULL,
			created    INTEGER NOT NULL,
			PRIMARY KEY (device, key, candidates)
		) WITHOUT ROWID`,
		fmt.Sprintf(`PRAGMA application_id = %d`, cacheAppID),
		fmt.Sprintf(`PRAGMA user_version = %d`, CacheVersion),
	} {
		if _, err := tx.ExecContext(ctx, stmt); err != nil {
			return err
		}
	}
	return tx.Commit()
}

// quickCheck makes a file that opens but is damaged fail now rather than on
// first use.
func quickCheck(ctx context.Context, db *sql.DB, _ cacheConfig) error {
	var check string
	if err := db.QueryRowContext(ctx, `PRAGMA quick_check`).Scan(&check); err != nil {
		return err
	}
	if check != "ok" {
		return fmt.Errorf("integrity check: %s", check)
	}
	return nil
}

// openRetries counts the opening steps retried for a lock: the tests
// report it.
var openRetries atomic.Int64

// retryBusy calls f until it succeeds, fails with other than a lock held by
// another connection (SQLITE_BUSY, SQLITE_LOCKED), or ctx ends.
func retryBusy(ctx context.Context, f func() error) error {
	delay := time.Millisecond
	for {
		err := f()
		if err == nil || !isBusy(err) {
			return err
		}
		openRetries.Add(1)
		select {
		case <-time.After(delay/2 + rand.N(delay)):
		case <-ctx.Done():
			return err
		}
		delay = min(2*delay, 50*time.Millisecond)
	}
}

func isBusy(err error) bool {
	var se *sqlite.Error
	if !errors.As(err, &se) {
		return false
	}
	code := se.Code() & 0xff      // the primary result code
	return code == 5 || code == 6 // SQLITE_BUSY, SQLITE_LOCKED
}

func (c *sqliteCache) Load(k CacheKey) (Entry, bool) {
	var value string
	err := c.db.QueryRow(`SELECT value FROM entries WHERE device = ? AND key = ? AND candidates = ?`, k.Device, k.Key, k.Candidates).Scan(&value)
	if err != nil {
		if !errors.Is(err, sql.ErrNoRows) {
			c.log.Warn("tune: cache load failed", "key", k.String(), "err", err)
		}
		return Entry{}, false
	}
	e, err := decodeEntry(value)
	if err != nil {
		c.log.Warn("tune: cache entry ignored", "key", k.String(), "err", err)
		return Entry{}, false
	}
	return e, true
}

func decodeEntry(value string) (Entry, error) {
	var e Entry
	if err := json.Unmarshal([]byte(value), &e); err != nil {
		return Entry{}, err
	}
	if len(e.Ranking) == 0 {
		return Entry{}, errors.New("empty ranking")
	}
	return e, nil
}

func (c *sqliteCache) Store(k CacheKey, e Entry) error {
	value, err := json.Marshal(e)
	if err != nil {
		return fmt.Errorf("tune: cache store: %w", err)
	}
	tx, err := c.db.Begin()
	if err != nil {
		return fmt.Errorf("tune: cache store: %w", err)
	}
	defer tx.Rollback()
	if _, err := tx.Exec(`INSERT INTO entries (device, key, candidates, value, created) VALUES (?, ?, ?, ?, ?)
		ON CONFLICT (device, key, candidates) DO UPDATE SET value = excluded.value, created = excluded.created`,
		k.Device, k.Key, k.Candidates, string(value), e.Created.Unix()); err != nil {
		return fmt.Errorf("tune: cache store: %w", err)
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("tune: cache store: %w", err)
	}
	return nil
}

func (c *sqliteCache) Delete(k CacheKey) error {
	if _, err := c.db.Exec(`DELETE FROM entries WHERE device = ? AND key = ? AND candidates = ?`, k.Device, k.Key, k.Candidates); err != nil {
		return fmt.Errorf("tune: cache delete: %w", err)
	}
	return nil
}

func (c *sqliteCache) Range(f func(CacheKey, Entry) bool) error {
	rows, err := c.db.Query(`SELECT device, key, candidates, value FROM entries ORDER BY device, key, candidates`)
	if err != nil {
		return fmt.Errorf("tune: cache range: %w", err)
	}
	type kv struct {
		k CacheKey
		v string
	}
	var all []kv // read whole before calling f, which may use the cache
	for rows.Next() {
		var r kv
		if err := rows.Scan(&r.k.Device, &r.k.Key, &r.k.Candidates, &r.v); err != nil {
			rows.Close()
			return fmt.Errorf("tune: cache range: %w", err)
		}
		all = append(all, r)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return fmt.Errorf("tune: cache range: %w", err)
	}
	for _, r := range all {
		e, err := decodeEntry(r.v)
		if err != nil {
			c.log.Warn("tune: cache entry ignored", "key", r.k.String(), "err", err)
			continue
		}
		if !f(r.k, e) {
			break
		}
	}
	return nil
}

func (c *sqliteCache) Close() error { return c.db.Close() }

// memoryCache is a Cache in a map: what a process tunes with when it has no
// usable file.
type memoryCache struct {
	mu sync.Mutex         // guards m
	m  map[CacheKey]Entry // key → entry
}

// NewMemoryCache returns an empty cache that lives as long as the process.
func NewMemoryCache() Cache { return &memoryCache{m: map[CacheKey]Entry{}} }

func (c *memoryCache) Load(k CacheKey) (Entry, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.m[k]
	return e, ok
}

func (c *memoryCache) Store(k CacheKey, e Entry) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.m[k] = e
	return nil
}

func (c *memoryCache) Delete(k CacheKey) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.m, k)
	return nil
}

func (c *memoryCache) Range(f func(CacheKey, Entry) bool) error {
	c.mu.Lock()
	keys := make([]CacheKey, 0, len(c.m))
	for k := range c.m {
		keys = append(keys, k)
	}
	c.mu.Unlock()
	slices.SortFunc(keys, func(a, b CacheKey) int {
		return cmp.Or(cmp.Compare(a.Device, b.Device), cmp.Compare(a.Key, b.Key), cmp.Compare(a.Candidates, b.Candidates))
	})
	for _, k := range keys {
		e, ok := c.Load(k)
		if ok && !f(k, e) {
			break
		}
	}
	return nil
}

func (c *memoryCache) Close() error { return nil }
