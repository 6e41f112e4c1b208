package client_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"strings"
	"testing"
)

// firstScreen is how many lines of the README a newcomer sees first: the
// two commands and the whole example must be among them.
const firstScreen = 50

// TestREADMEExampleIsExample guards that the README's example is Example
// (example_test.go), which CI runs: the README's "## Example" block must be
// Example's body, one tab of indentation less, and it must end, with the
// two commands above it, on the README's first screen. Edit the example,
// then paste the block this test prints into the README.
func TestREADMEExampleIsExample(t *testing.T) {
	src, err := os.ReadFile("example_test.go")
	if err != nil {
		t.Fatal(err)
	}
	f, err := parser.ParseFile(token.NewFileSet(), "example_test.go", src, parser.ParseComments|parser.SkipObjectResolution)
	if err != nil {
		t.Fatal(err)
	}
	var body string
	for _, d := range f.Decls {
		if d, ok := d.(*ast.FuncDecl); ok && d.Name.Name == "Example" && d.Recv == nil {
			body = string(src[d.Body.Lbrace+1-f.FileStart : d.Body.Rbrace-f.FileStart])
		}
	}
	if body == "" {
		t.Fatal("example_test.go has no func Example")
	}
	want := dedent(strings.TrimPrefix(body, "\n"))

	readme, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	before, section, ok := strings.Cut(string(readme), "\n## Example\n")
	if !ok {
		t.Fatal("README.md has no ## Example section")
	}
	intro, block, ok := strings.Cut(section, "```go\n")
	if !ok {
		t.Fatal("README.md's ## Example section has no ```go block")
	}
	got, _, ok := strings.Cut(block, "```")
	if !ok {
		t.Fatal("README.md's example ```go block does not end")
	}
	if got != want {
		gl, wl := strings.Split(got, "\n"), strings.Split(want, "\n")
		line := 0
		for line < min(len(gl), len(wl)) && gl[line] == wl[line] {
			line++
		}
		t.Errorf("README.md's example differs from client.Example at its line %d:\n got: %q\nwant: %q\nThe block to paste:\n%s",
			line+1, at(gl, line), at(wl, line), want)
	}

	// The line of the block's closing fence, counted from the README's first line.
	end := strings.Count(before, "\n") + 2 + strings.Count(intro, "\n") + 1 + strings.Count(got, "\n") + 1
	if end > firstScreen {
		t.Errorf("README.md's example ends at line %d: want it, and the two commands, on the first screen (%d lines)", end, firstScreen)
	}
	for _, cmd := range []string{"make demo", "make test"} {
		if !strings.Contains(before, "\n"+cmd) {
			t.Errorf("README.md has no line starting with %q above its example", cmd)
		}
	}
}

// dedent removes one leading tab from every line of s.
func dedent(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimPrefix(l, "\t")
	}
	return strings.Join(lines, "\n")
}

func at(lines []string, i int) string {
	if i < len(lines) {
		return lines[i]
	}
	return "(end)"
}
