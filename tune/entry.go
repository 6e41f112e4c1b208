package tune

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"time"
	"unicode/utf8"
)

// Entry is one cached tune: the ranking of a key's candidates, best first.
//
// Its JSON form keeps every byte: a candidate name that is not valid UTF-8
// is written as {"base64": "…"} instead of a string, which encoding/json
// would change. Decoding checks the entry: a ranking that is empty, names
// an empty or the same candidate twice, or an unknown timing is an error.
type Entry struct {
	Ranking []string  // candidate names, best first; Ranking[0] is the winner
	Timing  Timing    // how samples were timed
	Created time.Time // when it was measured
}

// entryJSON is Entry's JSON form.
type entryJSON struct {
	Ranking []exactString `json:"ranking"`
	Timing  Timing        `json:"timing"`
	Created time.Time     `json:"created"`
}

// MarshalJSON encodes e, its names byte for byte; an entry that
// UnmarshalJSON would refuse is an error.
func (e Entry) MarshalJSON() ([]byte, error) {
	if err := e.check(); err != nil {
		return nil, err
	}
	return json.Marshal(entryJSON{Ranking: exactStrings(e.Ranking), Timing: e.Timing, Created: e.Created})
}

// UnmarshalJSON decodes and checks an entry that MarshalJSON wrote.
func (e *Entry) UnmarshalJSON(b []byte) error {
	var j entryJSON
	if err := json.Unmarshal(b, &j); err != nil {
		return err
	}
	d := Entry{Ranking: plainStrings(j.Ranking), Timing: j.Timing, Created: j.Created}
	if err := d.check(); err != nil {
		return err
	}
	*e = d
	return nil
}

// check reports what makes e unusable as a cached decision.
func (e Entry) check() error {
	if len(e.Ranking) == 0 {
		return errors.New("empty ranking")
	}
	for i, name := range e.Ranking {
		if name == "" {
			return fmt.Errorf("ranking[%d] is empty", i)
		}
		for _, prev := range e.Ranking[:i] {
			if prev == name {
				return fmt.Errorf("ranking names %q twice", name)
			}
		}
	}
	if e.Timing != TimingGPU && e.Timing != TimingWall {
		return errors.New("no timing")
	}
	return nil
}

// exactString is a string that JSON keeps byte for byte: valid UTF-8 as a
// JSON string, anything else as {"base64": "…"} (standard encoding, padded).
type exactString string

func (s exactString) MarshalJSON() ([]byte, error) {
	if utf8.ValidString(string(s)) {
		var b bytes.Buffer
		enc := json.NewEncoder(&b)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(string(s)); err != nil {
			return nil, err
		}
		return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
	}
	return json.Marshal(struct {
		Base64 string `json:"base64"`
	}{base64.StdEncoding.EncodeToString([]byte(s))})
}

func (s *exactString) UnmarshalJSON(b []byte) error {
	if len(b) > 0 && b[0] == '"' {
		var v string
		if err := json.Unmarshal(b, &v); err != nil {
			return err
		}
		*s = exactString(v)
		return nil
	}
	var v struct {
		Base64 *string `json:"base64"`
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&v); err != nil {
		return fmt.Errorf("want a string or {\"base64\": …}: %w", err)
	}
	if v.Base64 == nil {
		return errors.New(`want a string or {"base64": …}`)
	}
	raw, err := base64.StdEncoding.DecodeString(*v.Base64)
	if err != nil {
		return fmt.Errorf("base64: %w", err)
	}
	*s = exactString(raw)
	return nil
}

func exactStrings(ss []string) []exactString {
	out := make([]exactString, len(ss))
	for i, s := range ss {
		out[i] = exactString(s)
	}
	return out
}

func plainStrings(ss []exactString) []string {
	if ss == nil {
		return nil
	}
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = string(s)
	}
	return out
}
