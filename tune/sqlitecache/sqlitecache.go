//go:build !js

package sqlitecache

import (
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
	"sync/atomic"
	"time"

	"modernc.org/sqlite" // the pure-Go SQLite driver: it builds without cgo

	"github.com/streamgate/streamgate/internal/low/cacheopt"
	"github.com/streamgate/streamgate/tune"
)

// cacheAppID is the SQLite application_id of a streamgate tune cache: "SGtu".
const cacheAppID = 0x53477475

// busyTimeout bounds how long an open or a store waits for another
// process's lock on the cache file.
const busyTimeout = 10 * time.Second

// Cache is a [tune.Cache] in one SQLite file. It is safe for concurrent use
// by multiple goroutines, and several processes may use one file at once.
// The zero value is not usable; use [Open].
type Cache struct {
	db   *sql.DB      // written once
	log  *slog.Logger // written once
	path string       // written once
	ro   *overlay     // nil unless the file is read-only; written once
	// kernels: the file has the kernels table (a read-only file of
	// version 2 has not); written once.
	kernels bool
}

// Open opens the SQLite cache at path, creating it and its directory if
// needed (a missing or empty file is a new cache). Several processes may
// open and use one file at once: it runs in WAL mode, each store is one
// transaction, and an open or a store waits out another process's lock for
// up to ten seconds, so a crash mid-write never loses an entry already
// stored and a busy file never loses one being stored.
//
// A file of version 2 is upgraded in place: it gains the kernels table and
// keeps its tune entries.
//
// A valid cache of this version or of version 2 that the process may not
// write — the file or its directory has no write permission bit, or the
// process lacks write access — is opened read-only, and never written to,
// even by root: loads read it, and stores (of tune entries and of kernels)
// go to memory for the process's life (the first one logs a warning). A
// read-only file that is not such a cache (empty, or of version 1, which
// would need an upgrade) is an error.
//
// A file that is not a streamgate tune cache — whatever its size — is
// refused with an error wrapping [ErrNotCache] and never written to; so is
// a cache of a newer version. On any error Open returns a nil *Cache: the
// caller decides whether to tune with [tune.NewMemoryCache] instead.
func Open(path string, opts ...Option) (*Cache, error) {
	c, err := open(path, cacheopt.Of(opts))
	if err != nil {
		return nil, fmt.Errorf("tune: cache %s: %w", path, err)
	}
	return c, nil
}

// ReadOnly reports whether the file was opened read-only: stores then
// live in memory only.
func (c *Cache) ReadOnly() bool { return c.ro != nil }

// sqliteMagic starts every SQLite database file.
const sqliteMagic = "SQLite format 3\x00"

// checkHeader refuses a non-empty file that is not an SQLite database. It
// returns the file's size, or -1 when there is no file.
func checkHeader(path string) (int64, error) {
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return -1, nil
	}
	if err != nil {
		return 0, err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return 0, err
	}
	if info.IsDir() {
		return 0, fmt.Errorf("%w: a directory", ErrNotCache)
	}
	if info.Size() == 0 {
		return 0, nil
	}
	hdr := make([]byte, len(sqliteMagic))
	if _, err := io.ReadFull(f, hdr); err != nil || string(hdr) != sqliteMagic {
		return 0, fmt.Errorf("%w: not an SQLite database (%d bytes); refusing to use or overwrite it", ErrNotCache, info.Size())
	}
	return info.Size(), nil
}

func open(path string, cfg cacheopt.Config) (*Cache, error) {
	size, err := checkHeader(path)
	if err != nil {
		return nil, err
	}
	if size > 0 && readOnly(path) {
		return openReadOnly(path, cfg)
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
	return &Cache{db: db, log: cfg.Log, path: path, kernels: true}, nil
}

// openReadOnly opens a cache file that this process must not write. A file
// with no write-ahead log beside it (a cache closed cleanly, as one is
// shipped) is opened immutable: SQLite then takes no lock and makes no
// -shm file, which a read-only directory would refuse. With a log beside
// it, it is opened read-only so that the log's entries are read too.
func openReadOnly(path string, cfg cacheopt.Config) (*Cache, error) {
	dsn := fmt.Sprintf("file:%s?mode=ro&_pragma=busy_timeout(%d)", path, busyTimeout.Milliseconds())
	if _, err := os.Lstat(path + "-wal"); errors.Is(err, fs.ErrNotExist) {
		dsn = fmt.Sprintf("file:%s?mode=ro&immutable=1", path)
	}
	db, err := sql.Open("sqlite", dsn)
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(context.Background(), busyTimeout)
	defer cancel()
	kernels := false
	err = retryBusy(ctx, func() error {
		appID, version, tables, err := identity(ctx, db)
		if err != nil {
			return err
		}
		if err := identityError(appID, version, tables); err != nil {
			return err
		}
		if appID != cacheAppID || version < firstReadable {
			return fmt.Errorf("read-only, and a cache of version %d that would need an upgrade to %d", max(version, 1), Version)
		}
		kernels = version >= firstKernels
		return quickCheck(ctx, db, cfg)
	})
	if err != nil {
		db.Close()
		return nil, err
	}
	return &Cache{db: db, log: cfg.Log, path: path, ro: newOverlay(), kernels: kernels}, nil
}

// initSQLite sets WAL mode (once per file), checks or creates the schema,
// and checks the file's integrity; each step retries while another process
// holds a lock, until ctx ends.
func initSQLite(ctx context.Context, db *sql.DB, cfg cacheopt.Config) error {
	steps := []func(context.Context, *sql.DB, cacheopt.Config) error{checkIdentity, setWAL, createSchema, quickCheck}
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
func checkIdentity(ctx context.Context, db *sql.DB, _ cacheopt.Config) error {
	appID, version, tables, err := identity(ctx, db)
	if err != nil {
		return err
	}
	return identityError(appID, version, tables)
}

func identityError(appID, version int, tables []string) error {
	switch {
	case appID == cacheAppID && version > Version:
		return fmt.Errorf("cache version %d is newer than this streamgate's %d; refusing to touch it", version, Version)
	case appID == cacheAppID:
		return nil
	case appID == 0 && version == 0 && (len(tables) == 0 || slices.Equal(tables, []string{"tune"})):
		return nil // new, or a version-1 streamgate cache (no application_id yet)
	}
	return fmt.Errorf("%w: an SQLite database of another application (application_id %#x, tables %q); refusing to touch it", ErrNotCache, appID, tables)
}

// setWAL switches the file to WAL mode unless it is in it already.
func setWAL(ctx context.Context, db *sql.DB, _ cacheopt.Config) error {
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

// The tables of a cache file of this version.
const (
	entriesTable = `CREATE TABLE entries (
			device     TEXT NOT NULL,
			key        TEXT NOT NULL,
			candidates TEXT NOT NULL,
			value      TEXT NOT NULL,
			created    INTEGER NOT NULL,
			PRIMARY KEY (device, key, candidates)
		) WITHOUT ROWID`
	// kernelsTable keeps a rowid: its entries are large (a lowered
	// kernel, kilobytes to a megabyte), which a WITHOUT ROWID table
	// stores badly.
	kernelsTable = `CREATE TABLE kernels (
			key   BLOB PRIMARY KEY,
			entry BLOB NOT NULL
		)`
)

// Versions that this one reads as they are, kernels aside.
const (
	firstReadable = 2 // the entries table as it is now
	firstKernels  = 3 // the kernels table
)

// upgrades[v] turns a file of version v into one of version v+1, keeping
// its entries. An older version that has none is dropped and made anew.
var upgrades = map[int][]string{
	2: {kernelsTable},
}

// upgradable reports whether a file of version v upgrades to Version
// through upgrades.
func upgradable(v int) bool {
	for ; v < Version; v++ {
		if _, ok := upgrades[v]; !ok {
			return false
		}
	}
	return true
}

// createSchema creates the tables of a new file, upgrades one of an older
// version in place (upgrades), or drops the tables of one too old to
// upgrade (its entries are misses anyway) and creates them anew, in one
// transaction.
func createSchema(ctx context.Context, db *sql.DB, cfg cacheopt.Config) error {
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
	if appID == cacheAppID && version == Version {
		return nil // another process made it, or an earlier run
	}
	var stmts []string
	if appID == cacheAppID && upgradable(version) {
		for v := version; v < Version; v++ {
			stmts = append(stmts, upgrades[v]...)
		}
	} else {
		if len(tables) > 0 {
			cfg.Log.Warn("tune: upgrading the cache; its older entries are dropped", "from", max(version, 1), "to", Version)
		}
		for _, name := range tables {
			stmts = append(stmts, `DROP TABLE "`+name+`"`)
		}
		stmts = append(stmts, entriesTable, kernelsTable, fmt.Sprintf(`PRAGMA application_id = %d`, cacheAppID))
	}
	stmts = append(stmts, fmt.Sprintf(`PRAGMA user_version = %d`, Version))
	for _, stmt := range stmts {
		if _, err := tx.ExecContext(ctx, stmt); err != nil {
			return err
		}
	}
	return tx.Commit()
}

// quickCheck makes a file that opens but is damaged fail now rather than on
// first use.
func quickCheck(ctx context.Context, db *sql.DB, _ cacheopt.Config) error {
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

// Load returns the entry stored under k; an entry that does not decode is
// logged and is a miss.
func (c *Cache) Load(k tune.CacheKey) (tune.Entry, bool) {
	if c.ro != nil {
		if e, ok, known := c.ro.load(k); known {
			return e, ok
		}
	}
	var value string
	err := c.db.QueryRow(`SELECT value FROM entries WHERE device = ? AND key = ? AND candidates = ?`, k.Device, k.Key, k.Candidates).Scan(&value)
	if err != nil {
		if !errors.Is(err, sql.ErrNoRows) {
			c.log.Warn("tune: cache load failed", "key", k.String(), "err", err)
		}
		return tune.Entry{}, false
	}
	var e tune.Entry
	if err := json.Unmarshal([]byte(value), &e); err != nil {
		c.log.Warn("tune: cache entry ignored", "key", k.String(), "err", err)
		return tune.Entry{}, false
	}
	return e, true
}

// Store saves e under k in one transaction; in a read-only cache, in
// memory.
func (c *Cache) Store(k tune.CacheKey, e tune.Entry) error {
	value, err := json.Marshal(e)
	if err != nil {
		return fmt.Errorf("tune: cache store: %w", err)
	}
	if c.ro != nil {
		c.warnReadOnly()
		c.ro.store(k, e)
		return nil
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

// warnReadOnly logs, on a read-only cache's first store, that stores are
// kept in memory.
func (c *Cache) warnReadOnly() {
	c.ro.warnOnce.Do(func() {
		c.log.Warn("tune: the cache is read-only; new results are kept in memory for this process", "path", c.path)
	})
}

// Delete forgets k; in a read-only cache, for this process.
func (c *Cache) Delete(k tune.CacheKey) error {
	if c.ro != nil {
		c.ro.delete(k)
		return nil
	}
	if _, err := c.db.Exec(`DELETE FROM entries WHERE device = ? AND key = ? AND candidates = ?`, k.Device, k.Key, k.Candidates); err != nil {
		return fmt.Errorf("tune: cache delete: %w", err)
	}
	return nil
}

// Range calls f for each entry in key order; in a read-only cache, the
// file's entries as this process's stores and deletes left them.
func (c *Cache) Range(f func(tune.CacheKey, tune.Entry) bool) error {
	rows, err := c.db.Query(`SELECT device, key, candidates, value FROM entries ORDER BY device, key, candidates`)
	if err != nil {
		return fmt.Errorf("tune: cache range: %w", err)
	}
	type kv struct {
		k tune.CacheKey
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
	var keys []tune.CacheKey
	entries := map[tune.CacheKey]tune.Entry{}
	for _, r := range all {
		var e tune.Entry
		if err := json.Unmarshal([]byte(r.v), &e); err != nil {
			c.log.Warn("tune: cache entry ignored", "key", r.k.String(), "err", err)
			continue
		}
		keys = append(keys, r.k)
		entries[r.k] = e
	}
	if c.ro != nil {
		keys = c.ro.merge(keys, entries)
	}
	for _, k := range keys {
		if !f(k, entries[k]) {
			break
		}
	}
	return nil
}

// Close releases the file; a read-only cache's stores are gone with it.
func (c *Cache) Close() error { return c.db.Close() }
