package webcache

import (
	"testing"

	"github.com/streamgate/streamgate/tune"
)

func TestKeyRoundTrip(t *testing.T) {
	for _, k := range []tune.CacheKey{
		{},
		{Device: "llvmpipe", Key: "matmul/64x64", Candidates: "1a2b"},
		{Device: "a:b", Key: "\xff\x00", Candidates: "é"},
	} {
		raw := storageKey(DefaultPrefix, k)
		got, ok := parseKey(DefaultPrefix, raw)
		if !ok || got != k {
			t.Errorf("parseKey(storageKey(%q)) = %q, %v", k, got, ok)
		}
		if _, ok := parseKey("other/", raw); ok {
			t.Errorf("parseKey under another prefix accepted %q", raw)
		}
	}
	for _, raw := range []string{
		"streamgate/tune/v0:YQ:YQ:YQ",  // another version
		"streamgate/tune/v1:YQ:YQ",     // two parts
		"streamgate/tune/v1:YQ:YQ:YQ:", // four
		"streamgate/tune/v1:YQ=:YQ:YQ", // padded
		"streamgate/tune/v1:YR:YQ:YQ",  // not canonical
		"streamgate/tune/v1:Y*:YQ:YQ",  // not base64url
	} {
		if k, ok := parseKey(DefaultPrefix, raw); ok {
			t.Errorf("parseKey(%q) = %q, want false", raw, k)
		}
	}
}
