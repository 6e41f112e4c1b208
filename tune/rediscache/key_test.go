package rediscache_test

import (
	"strings"
	"testing"

	"github.com/streamgate/streamgate/tune"
	"github.com/streamgate/streamgate/tune/rediscache"
)

// nastyKeys hold the bytes a key layout can trip on: the separator,
// digits that look like a length, bytes that are not UTF-8, NUL, empty
// parts, and a part that holds a whole key.
var nastyKeys = []tune.CacheKey{
	{Device: "llvmpipe (LLVM 15.0.6, 256 bits)|Vulkan", Key: "matmul/64x64x32", Candidates: "1a2b3c4d"},
	{Device: "d", Key: "k", Candidates: "c"},
	{Device: "", Key: "", Candidates: ""},
	{Device: ":", Key: "::", Candidates: ":::"},
	{Device: "1:a", Key: "b", Candidates: "c"},
	{Device: "1", Key: ":ab", Candidates: "c"},
	{Device: "3:abc", Key: "0:", Candidates: "10:"},
	{Device: "0", Key: "00", Candidates: "007:"},
	{Device: "12345678901234567890:x", Key: "9", Candidates: "-1:"},
	{Device: "gpu\xff", Key: "op", Candidates: "c"},
	{Device: "gpu", Key: "\xfe\xff", Candidates: "\x80"},
	{Device: "d", Key: "op", Candidates: "c\x00"},
	{Device: "\x00\x00", Key: "\x00", Candidates: "\x00:\x00"},
	{Device: "streamgate:tune:v2:e:1:d1:k1:c", Key: "v2:e:", Candidates: "*?[]\\"},
	{Device: strings.Repeat("x", 1000), Key: strings.Repeat("1:", 500), Candidates: "c"},
	{Device: "日本語", Key: "ключ", Candidates: "🙂"},
}

var prefixes = []string{rediscache.DefaultPrefix, "", "app:", "a*b?[c]\\", "v2:e:", "1:"}

// TestParseKeyRoundTrip: every key's Redis key parses back to the key,
// under every prefix.
func TestParseKeyRoundTrip(t *testing.T) {
	for _, prefix := range prefixes {
		for _, k := range nastyKeys {
			raw := rediscache.RedisKey(prefix, k)
			got, ok := rediscache.ParseKey(prefix, raw)
			if !ok || got != k {
				t.Errorf("ParseKey(%q, %q) = %#v, %v, want %#v, true", prefix, raw, got, ok, k)
			}
		}
	}
}

// TestParseKeyRefuses: a raw key that redisKey writes for no key does not
// parse.
func TestParseKeyRefuses(t *testing.T) {
	const p = rediscache.DefaultPrefix + "v2:e:"
	for _, tc := range []struct{ name, raw string }{
		{"empty", ""},
		{"prefix only", p},
		{"another prefix", "other:v2:e:1:d1:k1:c"},
		{"another version", rediscache.DefaultPrefix + "v1:e:1:d1:k1:c"},
		{"a claim", rediscache.DefaultPrefix + "v2:c:1:d1:k1:c"},
		{"two parts", p + "1:d1:k"},
		{"a part short", p + "1:d1:k2:c"},
		{"a byte after", p + "1:d1:k1:cx"},
		{"a part after", p + "1:d1:k1:c0:"},
		{"no length", p + ":d1:k1:c"},
		{"no colon", p + "1d1:k1:c"},
		{"a length and nothing", p + "1"},
		{"leading zero", p + "01:d1:k1:c"},
		{"zero zero", p + "00:1:k1:c"},
		{"sign", p + "+1:d1:k1:c"},
		{"minus", p + "-1:d1:k1:c"},
		{"space", p + " 1:d1:k1:c"},
		{"huge length", p + "99999999999999999999999:d1:k1:c"},
		{"overflowing length", p + "18446744073709551617:d1:k1:c"},
		{"not a key at all", "garbage"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if k, ok := rediscache.ParseKey(rediscache.DefaultPrefix, tc.raw); ok {
				t.Errorf("ParseKey(%q) = %#v, true, want false", tc.raw, k)
			}
		})
	}
}

func TestGlobEscape(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"streamgate:tune:v2:e:", "streamgate:tune:v2:e:"},
		{"a*b?[c]\\d^-e", `a\*b\?\[c\]\\d^-e`},
		{"", ""},
	} {
		if got := rediscache.GlobEscape(tc.in); got != tc.want {
			t.Errorf("GlobEscape(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// FuzzRedisKey: any key's Redis key parses back to it, under any prefix.
func FuzzRedisKey(f *testing.F) {
	for i, k := range nastyKeys {
		f.Add(prefixes[i%len(prefixes)], k.Device, k.Key, k.Candidates)
	}
	f.Fuzz(func(t *testing.T, prefix, device, key, candidates string) {
		k := tune.CacheKey{Device: device, Key: key, Candidates: candidates}
		raw := rediscache.RedisKey(prefix, k)
		if got, ok := rediscache.ParseKey(prefix, raw); !ok || got != k {
			t.Fatalf("ParseKey(%q, %q) = %#v, %v, want %#v, true", prefix, raw, got, ok, k)
		}
	})
}

// FuzzParseKey: a raw key that parses is the Redis key of what it parses
// to, byte for byte: no two raw keys parse to one key.
func FuzzParseKey(f *testing.F) {
	for _, k := range nastyKeys {
		f.Add(rediscache.RedisKey(rediscache.DefaultPrefix, k))
	}
	const p = rediscache.DefaultPrefix + "v2:e:"
	for _, raw := range []string{"", p, p + "01:d1:k1:c", p + "1:d1:k1:cx", p + "+1:d1:k1:c", p + "99999999999999999999:"} {
		f.Add(raw)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		k, ok := rediscache.ParseKey(rediscache.DefaultPrefix, raw)
		if !ok {
			return
		}
		if back := rediscache.RedisKey(rediscache.DefaultPrefix, k); back != raw {
			t.Fatalf("ParseKey(%q) = %#v, whose Redis key is %q", raw, k, back)
		}
	})
}
