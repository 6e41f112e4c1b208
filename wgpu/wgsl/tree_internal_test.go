package wgsl

import (
	"strings"
	"testing"
)

// TestBinaryLevel: the parser's switch gives every operator the level of
// binaryLevels, the table the printer reads, and -1 to anything else.
func TestBinaryLevel(t *testing.T) {
	for l, ops := range binaryLevels {
		for _, op := range ops {
			if got := binaryLevel(op); got != l {
				t.Errorf("binaryLevel(%q) = %d, want %d", op, got, l)
			}
		}
	}
	for _, op := range []string{"=", "!", "~", "->", "+=", "<<=", ".", "("} {
		if got := binaryLevel(op); got != -1 {
			t.Errorf("binaryLevel(%q) = %d, want -1", op, got)
		}
	}
}

// TestPunctLen: the lexer's switch finds the longest of WGSL's
// punctuators at the start of every string of up to three punctuation
// characters, as a search of the list, longest first, does.
func TestPunctLen(t *testing.T) {
	list := []string{
		">>=", "<<=",
		"->", "&&", "||", "==", "!=", ">=", "<=", ">>", "<<", "--", "++",
		"+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=",
		"&", "@", "/", "!", "[", "]", "{", "}", ":", ",", "=", ">", "<", "%",
		"-", ".", "+", "|", "(", ")", ";", "*", "~", "^",
	}
	want := func(s string) int {
		for _, p := range list {
			if strings.HasPrefix(s, p) {
				return len(p)
			}
		}
		return 0
	}
	chars := "&@/![]{}:,=><%-.+|();*~^#$a1 "
	for _, a := range chars {
		for _, b := range chars {
			for _, c := range chars {
				for _, s := range []string{string(a), string(a) + string(b), string(a) + string(b) + string(c)} {
					if got := punctLen(s); got != want(s) {
						t.Fatalf("punctLen(%q) = %d, want %d", s, got, want(s))
					}
				}
			}
		}
	}
}
