//go:build linux && !android

package xdg

import (
	"os"
	"path/filepath"
	"strconv"
	"testing"
)

func TestRuntimeDir(t *testing.T) {
	tmp := t.TempDir()
	uid := os.Getuid()
	ours := filepath.Join(tmp, "streamgate-xdg-"+strconv.Itoa(uid))
	existing := t.TempDir()
	file := filepath.Join(tmp, "file")
	if err := os.WriteFile(file, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		cur  string
		ok   bool
		dir  string // "" with ok: a fresh directory under tmp
	}{
		{"valid", existing, false, ""},
		{"unset", "", true, ours},
		{"relative", "run/user", true, ours},
		{"missing", filepath.Join(tmp, "nope"), true, ours},
		{"a file", file, true, ours},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir, ok := runtimeDir(tc.cur, tmp, uid)
			if ok != tc.ok || dir != tc.dir {
				t.Fatalf("runtimeDir(%q) = %q, %v, want %q, %v", tc.cur, dir, ok, tc.dir, tc.ok)
			}
			if ok {
				fi, err := os.Stat(dir)
				if err != nil || !fi.IsDir() || fi.Mode().Perm() != 0o700 {
					t.Fatalf("runtimeDir made %q: %v, %v; want a 0700 directory", dir, fi, err)
				}
			}
		})
	}
	t.Run("a loosened one is tightened", func(t *testing.T) {
		if err := os.Chmod(ours, 0o755); err != nil {
			t.Fatal(err)
		}
		if dir, ok := runtimeDir("", tmp, uid); !ok || dir != ours {
			t.Fatalf("runtimeDir = %q, %v, want %q", dir, ok, ours)
		}
		if fi, _ := os.Stat(ours); fi.Mode().Perm() != 0o700 {
			t.Errorf("mode %v, want 0700", fi.Mode().Perm())
		}
	})
	t.Run("someone else's name is not used", func(t *testing.T) {
		tmp := t.TempDir()
		planted := filepath.Join(tmp, "streamgate-xdg-"+strconv.Itoa(uid))
		if err := os.Symlink(t.TempDir(), planted); err != nil {
			t.Fatal(err)
		}
		dir, ok := runtimeDir("", tmp, uid)
		if !ok || dir == planted || filepath.Dir(dir) != tmp {
			t.Fatalf("runtimeDir = %q, %v, want a fresh directory under %q", dir, ok, tmp)
		}
	})
}
