package tune

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"time"
)

// exportLine is one line of an export: one entry, keyed by adapter
// identity, tuner key and candidate checksum.
type exportLine struct {
	Version    int       `json:"version"`
	Device     string    `json:"device"`
	Key        string    `json:"key"`
	Candidates string    `json:"candidates"`
	Ranking    []string  `json:"ranking"`
	Timing     Timing    `json:"timing"`
	Created    time.Time `json:"created"`
}

// Export writes c's entries to w as JSON lines, one entry a line, each
// carrying [CacheVersion] and its adapter identity; device, if not empty,
// keeps only that adapter's entries. Identical machines tune once and ship
// the result with [Import]. It returns the number of entries written.
func Export(w io.Writer, c Cache, device string) (n int, err error) {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	rerr := c.Range(func(k CacheKey, e Entry) bool {
		if device != "" && k.Device != device {
			return true
		}
		err = enc.Encode(exportLine{Version: CacheVersion, Device: k.Device, Key: k.Key, Candidates: k.Candidates,
			Ranking: e.Ranking, Timing: e.Timing, Created: e.Created.UTC()})
		if err != nil {
			return false
		}
		n++
		return true
	})
	if err == nil {
		err = rerr
	}
	if err != nil {
		return n, fmt.Errorf("tune: export: %w", err)
	}
	return n, nil
}

// maxLine bounds one line of an import.
const maxLine = 1 << 20

// Import reads JSON lines written by [Export] from r and stores their
// entries in c, replacing entries of the same keys. It reads every line
// before storing any: a line of another cache version, or one that is not a
// valid entry, makes it store nothing and return an error naming the line.
// Blank lines are skipped. It returns the number of entries stored.
func Import(r io.Reader, c Cache) (n int, err error) {
	type entry struct {
		k CacheKey
		e Entry
	}
	var entries []entry
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), maxLine)
	for line := 1; sc.Scan(); line++ {
		b := bytes.TrimSpace(sc.Bytes())
		if len(b) == 0 {
			continue
		}
		l, err := decodeLine(b)
		if err != nil {
			return 0, fmt.Errorf("tune: import: line %d: %w", line, err)
		}
		entries = append(entries, entry{
			k: CacheKey{Device: l.Device, Key: l.Key, Candidates: l.Candidates},
			e: Entry{Ranking: l.Ranking, Timing: l.Timing, Created: l.Created},
		})
	}
	if err := sc.Err(); err != nil {
		return 0, fmt.Errorf("tune: import: %w", err)
	}
	for _, e := range entries {
		if err := c.Store(e.k, e.e); err != nil {
			return n, fmt.Errorf("tune: import: %w", err)
		}
		n++
	}
	return n, nil
}

// decodeLine decodes and checks one line of an export.
func decodeLine(b []byte) (exportLine, error) {
	// The version first, so a line of another version says so rather
	// than failing on a field it does not have.
	var v struct {
		Version *int `json:"version"`
	}
	if err := json.Unmarshal(b, &v); err != nil {
		return exportLine{}, fmt.Errorf("not a JSON object: %w", err)
	}
	if v.Version == nil {
		return exportLine{}, errors.New("no version")
	}
	if *v.Version != CacheVersion {
		return exportLine{}, fmt.Errorf("cache version %d, want %d", *v.Version, CacheVersion)
	}
	var l exportLine
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&l); err != nil {
		return exportLine{}, err
	}
	if dec.More() {
		return exportLine{}, errors.New("more than one value on the line")
	}
	switch {
	case l.Device == "":
		return exportLine{}, errors.New("no device")
	case l.Key == "":
		return exportLine{}, errors.New("no key")
	case l.Candidates == "":
		return exportLine{}, errors.New("no candidates checksum")
	case len(l.Ranking) == 0:
		return exportLine{}, errors.New("empty ranking")
	case l.Timing != TimingGPU && l.Timing != TimingWall:
		return exportLine{}, errors.New("no timing")
	}
	for i, name := range l.Ranking {
		if name == "" {
			return exportLine{}, fmt.Errorf("ranking[%d] is empty", i)
		}
		for _, prev := range l.Ranking[:i] {
			if prev == name {
				return exportLine{}, fmt.Errorf("ranking names %q twice", name)
			}
		}
	}
	return l, nil
}
