package tune

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"time"
)

// ExportVersion is the format version of the lines [Export] writes.
// Version 3 writes a key part or candidate name that is not valid UTF-8 as
// {"base64": "…"} rather than a string, which JSON would change; a version-2
// line, whose parts are all strings, reads the same and is still imported.
const ExportVersion = 3

// MaxLine is the longest line, in bytes with its newline, that [Import]
// reads and [Export] writes.
const MaxLine = 1 << 20

// exportLine is one line of an export: one entry, keyed by adapter
// identity, tuner key and candidate checksum.
type exportLine struct {
	Version    int           `json:"version"`
	Device     exactString   `json:"device"`
	Key        exactString   `json:"key"`
	Candidates exactString   `json:"candidates"`
	Ranking    []exactString `json:"ranking"`
	Timing     Timing        `json:"timing"`
	Created    time.Time     `json:"created"`
}

// Export writes c's entries to w as JSON lines, one entry a line, each
// carrying [ExportVersion] and its adapter identity; device, if not empty,
// keeps only that adapter's entries. Identical machines tune once and ship
// the result with [Import]. Every byte of a key and of a candidate name
// survives the round trip.
//
// Export checks every line before writing any: an entry that Import would
// refuse (an empty key part or ranking, a name twice, a line longer than
// [MaxLine]) makes it write nothing and return an error naming the entry.
// It returns the number of entries written.
func Export(w io.Writer, c Cache, device string) (n int, err error) {
	var out bytes.Buffer
	rerr := c.Range(func(k CacheKey, e Entry) bool {
		if device != "" && k.Device != device {
			return true
		}
		var b []byte
		b, err = encodeLine(k, e)
		if err == nil {
			_, err = decodeLine(bytes.TrimSuffix(b, []byte("\n")), ExportVersion) // what Import would say
		}
		if err == nil && len(b) > MaxLine {
			err = fmt.Errorf("line of %d bytes, over the %d that import reads", len(b), MaxLine)
		}
		if err != nil {
			err = fmt.Errorf("entry %s: %w", k, err)
			return false
		}
		out.Write(b)
		n++
		return true
	})
	if err == nil {
		err = rerr
	}
	if err == nil {
		_, err = w.Write(out.Bytes())
	}
	if err != nil {
		return 0, fmt.Errorf("tune: export: %w", err)
	}
	return n, nil
}

// encodeLine encodes one entry as a line of an export, newline included.
func encodeLine(k CacheKey, e Entry) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	err := enc.Encode(exportLine{Version: ExportVersion, Device: exactString(k.Device), Key: exactString(k.Key),
		Candidates: exactString(k.Candidates), Ranking: exactStrings(e.Ranking), Timing: e.Timing, Created: e.Created.UTC()})
	return b.Bytes(), err
}

// Import reads JSON lines written by [Export] (of [ExportVersion] or
// version 2) from r and stores their entries in c, replacing entries of
// the same keys. It reads every line before storing any: a line of another
// version, one that is not a valid entry, or one longer than [MaxLine]
// bytes makes it store nothing and return an error naming the line. Blank
// lines are skipped. It returns the number of entries stored.
func Import(r io.Reader, c Cache) (n int, err error) {
	type entry struct {
		k CacheKey
		e Entry
	}
	var entries []entry
	br := bufio.NewReaderSize(r, 64<<10)
	for line := 1; ; line++ {
		b, err := readLine(br)
		if errors.Is(err, io.EOF) && len(b) == 0 {
			break
		}
		if err != nil && !errors.Is(err, io.EOF) {
			return 0, fmt.Errorf("tune: import: line %d: %w", line, err)
		}
		b = bytes.TrimSpace(b)
		if len(b) == 0 {
			continue
		}
		l, err := decodeLine(b, 2, ExportVersion)
		if err != nil {
			return 0, fmt.Errorf("tune: import: line %d: %w", line, err)
		}
		entries = append(entries, entry{
			k: CacheKey{Device: string(l.Device), Key: string(l.Key), Candidates: string(l.Candidates)},
			e: Entry{Ranking: plainStrings(l.Ranking), Timing: l.Timing, Created: l.Created},
		})
	}
	for _, e := range entries {
		if err := c.Store(e.k, e.e); err != nil {
			return n, fmt.Errorf("tune: import: %w", err)
		}
		n++
	}
	return n, nil
}

// errLongLine is readLine's error for a line over MaxLine.
var errLongLine = fmt.Errorf("longer than %d bytes, the most a line may hold", MaxLine)

// readLine returns the next line of br, its newline included; io.EOF with
// the last line if it has none, or with nothing at the end.
func readLine(br *bufio.Reader) ([]byte, error) {
	var line []byte
	for {
		chunk, err := br.ReadSlice('\n')
		if len(line)+len(chunk) > MaxLine {
			return nil, errLongLine
		}
		line = append(line, chunk...)
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		return line, err
	}
}

// decodeLine decodes and checks one line of an export of one of versions.
func decodeLine(b []byte, versions ...int) (exportLine, error) {
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
	if !slices.Contains(versions, *v.Version) {
		return exportLine{}, fmt.Errorf("export version %d, want %d", *v.Version, ExportVersion)
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
	}
	if err := (Entry{Ranking: plainStrings(l.Ranking), Timing: l.Timing}).check(); err != nil {
		return exportLine{}, err
	}
	return l, nil
}
