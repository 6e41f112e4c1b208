package webcache

import (
	"encoding/base64"
	"strconv"
	"strings"

	"github.com/streamgate/streamgate/tune"
)

var b64 = base64.RawURLEncoding.Strict()

// versionPrefix is what every storage key of a cache with prefix starts
// with.
func versionPrefix(prefix string) string { return prefix + "v" + strconv.Itoa(Version) + ":" }

// storageKey is k's storage key under prefix:
//
//	streamgate/tune/v1:bGx2bXBpcGU:bWF0bXVsLzY0:MWEyYg
func storageKey(prefix string, k tune.CacheKey) string {
	return versionPrefix(prefix) + b64.EncodeToString([]byte(k.Device)) + ":" +
		b64.EncodeToString([]byte(k.Key)) + ":" + b64.EncodeToString([]byte(k.Candidates))
}

// parseKey returns the key whose storageKey under prefix is raw, or false
// for a raw that storageKey writes for no key (another prefix or version,
// a part that is not canonical base64url).
func parseKey(prefix, raw string) (tune.CacheKey, bool) {
	rest, ok := strings.CutPrefix(raw, versionPrefix(prefix))
	if !ok {
		return tune.CacheKey{}, false
	}
	parts := strings.Split(rest, ":")
	if len(parts) != 3 {
		return tune.CacheKey{}, false
	}
	var dec [3]string
	for i, p := range parts {
		b, err := b64.DecodeString(p)
		if err != nil || b64.EncodeToString(b) != p {
			return tune.CacheKey{}, false
		}
		dec[i] = string(b)
	}
	return tune.CacheKey{Device: dec[0], Key: dec[1], Candidates: dec[2]}, true
}
