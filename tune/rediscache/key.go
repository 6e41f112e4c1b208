package rediscache

import (
	"strconv"
	"strings"

	"github.com/streamgate/streamgate/tune"
)

// keyVersion is the version of the key layout and value format in Redis.
const keyVersion = "v2"

// redisKey is k's key of kind under prefix: prefix, keyVersion, kind ("e"
// the entry, "c" the claim), then each part of k length-prefixed, so that
// no two keys share a Redis key whatever bytes their parts hold:
//
//	streamgate:tune:v2:e:8:llvmpipe12:matmul/64x648:1a2b3c4d
func redisKey(prefix, kind string, k tune.CacheKey) string {
	var b strings.Builder
	b.WriteString(kindPrefix(prefix, kind))
	part(&b, k.Device)
	part(&b, k.Key)
	part(&b, k.Candidates)
	return b.String()
}

// kindPrefix is what every key of kind under prefix starts with.
func kindPrefix(prefix, kind string) string { return prefix + keyVersion + ":" + kind + ":" }

// part appends s to b length-prefixed: its length in decimal, ':', s.
func part(b *strings.Builder, s string) {
	b.WriteString(strconv.Itoa(len(s)))
	b.WriteByte(':')
	b.WriteString(s)
}

// parseKey returns the key k whose redisKey(prefix, kind, k) is raw. It
// reports false for a raw that redisKey writes for no key: another prefix,
// version or kind, a length that is not canonical decimal (a sign, a
// leading zero) or overruns raw, or bytes after the last part. So a raw
// that parses is redisKey's, byte for byte, and two raw keys never parse
// to one key.
func parseKey(prefix, kind, raw string) (k tune.CacheKey, ok bool) {
	rest, ok := strings.CutPrefix(raw, kindPrefix(prefix, kind))
	if !ok {
		return tune.CacheKey{}, false
	}
	var parts [3]string
	for i := range parts {
		if parts[i], rest, ok = cutPart(rest); !ok {
			return tune.CacheKey{}, false
		}
	}
	if rest != "" {
		return tune.CacheKey{}, false
	}
	return tune.CacheKey{Device: parts[0], Key: parts[1], Candidates: parts[2]}, true
}

// cutPart cuts one part, as part writes it, from the front of s.
func cutPart(s string) (p, rest string, ok bool) {
	n, i := 0, 0
	for ; i < len(s) && '0' <= s[i] && s[i] <= '9'; i++ {
		if i > 0 && n == 0 {
			return "", "", false // a leading zero: part writes none
		}
		if n > len(s)/10 {
			return "", "", false // longer than s, and n*10 might overflow
		}
		n = n*10 + int(s[i]-'0')
	}
	if i == 0 || i == len(s) || s[i] != ':' {
		return "", "", false
	}
	s = s[i+1:]
	if n > len(s) {
		return "", "", false
	}
	return s[:n], s[n:], true
}

// globEscape escapes the bytes that a Redis glob (SCAN's MATCH) gives a
// meaning, so that the pattern matches s itself.
func globEscape(s string) string {
	var b strings.Builder
	for i := range len(s) {
		switch s[i] {
		case '*', '?', '[', ']', '\\':
			b.WriteByte('\\')
		}
		b.WriteByte(s[i])
	}
	return b.String()
}
