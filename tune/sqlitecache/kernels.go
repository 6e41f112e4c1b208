//go:build !js

package sqlitecache

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
)

// LoadKernel returns the kernel entry stored under key (see
// wgpu.KernelStore); in a read-only cache, this process's store of it
// first. A context that is done, or a file that fails the read (logged), is
// a miss.
func (c *Cache) LoadKernel(ctx context.Context, key [32]byte) ([]byte, bool) {
	if ctx.Err() != nil {
		return nil, false
	}
	if c.ro != nil {
		if e, ok := c.ro.loadKernel(key); ok {
			return e, true
		}
	}
	if !c.kernels {
		return nil, false
	}
	var e []byte // Scan copies: the caller owns it
	err := c.db.QueryRowContext(ctx, `SELECT entry FROM kernels WHERE key = ?`, key[:]).Scan(&e)
	if err != nil {
		if !errors.Is(err, sql.ErrNoRows) && ctx.Err() == nil {
			c.log.Warn("tune: cache kernel load failed", "key", fmt.Sprintf("%x", key), "err", err)
		}
		return nil, false
	}
	if e == nil {
		e = []byte{}
	}
	return e, true
}

// StoreKernel saves entry under key in one transaction, replacing any
// earlier entry (see wgpu.KernelStore); in a read-only cache, in memory
// for the process's life (the first store of either kind logs a
// warning). A context that is done returns ctx.Err() and stores nothing.
func (c *Cache) StoreKernel(ctx context.Context, key [32]byte, entry []byte) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if entry == nil {
		entry = []byte{} // an empty entry, not NULL
	}
	if c.ro != nil {
		c.warnReadOnly()
		c.ro.storeKernel(key, bytes.Clone(entry))
		return nil
	}
	tx, err := c.db.BeginTx(ctx, nil) // BEGIN IMMEDIATE: waits out other writers
	if err != nil {
		return fmt.Errorf("tune: cache kernel store: %w", err)
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, `INSERT INTO kernels (key, entry) VALUES (?, ?)
		ON CONFLICT (key) DO UPDATE SET entry = excluded.entry`, key[:], entry); err != nil {
		return fmt.Errorf("tune: cache kernel store: %w", err)
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("tune: cache kernel store: %w", err)
	}
	return nil
}

// RangeKernels calls f for each kernel entry in key order (bytewise),
// until f returns false; in a read-only cache, the file's entries with
// this process's stores over them. It lists the keys first and reads each
// entry as f's turn comes, so f may call the cache and only one entry is
// held at a time; like Range it is not a snapshot of concurrent stores.
// A row whose key is not 32 bytes (not written by this package) is
// skipped.
func (c *Cache) RangeKernels(f func(key [32]byte, entry []byte) bool) error {
	var keys [][32]byte
	if c.kernels {
		rows, err := c.db.Query(`SELECT key FROM kernels ORDER BY key`)
		if err != nil {
			return fmt.Errorf("tune: cache kernel range: %w", err)
		}
		for rows.Next() {
			var raw []byte
			if err := rows.Scan(&raw); err != nil {
				rows.Close()
				return fmt.Errorf("tune: cache kernel range: %w", err)
			}
			if len(raw) == 32 {
				keys = append(keys, [32]byte(raw))
			}
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return fmt.Errorf("tune: cache kernel range: %w", err)
		}
	}
	if c.ro != nil {
		keys = append(keys, c.ro.kernelKeys()...)
		slices.SortFunc(keys, func(a, b [32]byte) int { return bytes.Compare(a[:], b[:]) })
		keys = slices.Compact(keys)
	}
	for _, k := range keys {
		e, ok := c.LoadKernel(context.Background(), k)
		if !ok {
			continue // gone meanwhile, or unreadable (logged)
		}
		if !f(k, e) {
			break
		}
	}
	return nil
}
