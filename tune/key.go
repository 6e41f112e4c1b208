package tune

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
)

// CacheKey identifies one cached tune. Its parts are kept apart wherever it
// is stored (a composite primary key in the SQLite cache, separate fields
// in an export), so two keys share an entry only when every part is equal,
// whatever bytes the parts hold.
type CacheKey struct {
	Device     string // the adapter identity: name, vendor, driver, backend
	Key        string // the tuner key: an operation and a shape class
	Candidates string // a checksum of the candidate names, in order
}

// String formats k for messages; it is not an identity (parts may hold
// any bytes).
func (k CacheKey) String() string {
	return fmt.Sprintf("%q on %q (candidates %s)", k.Key, k.Device, k.Candidates)
}

// candidatesSum is the checksum of the candidate names: length-prefixed, so
// no two name lists share it short of a SHA-256 collision.
func candidatesSum(cands []Candidate) string {
	h := sha256.New()
	for _, c := range cands {
		fmt.Fprintf(h, "%d:%s;", len(c.Name), c.Name)
	}
	return hex.EncodeToString(h.Sum(nil)[:8])
}

// cacheKey is the persistent key of key's candidates on this tuner's device.
func (t *Tuner) cacheKey(key string, cands []Candidate) CacheKey {
	return CacheKey{Device: t.device, Key: key, Candidates: candidatesSum(cands)}
}
