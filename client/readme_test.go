package client_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"strings"
	"testing"
)

// TestREADMEUsageIsExample guards that the README's usage program is
// Example (example_test.go), which CI runs: the program must be package
// main with Example's imports and Example's body as main's. Edit the
// example, then paste the program this test prints into the README.
func TestREADMEUsageIsExample(t *testing.T) {
	src, err := os.ReadFile("example_test.go")
	if err != nil {
		t.Fatal(err)
	}
	f, err := parser.ParseFile(token.NewFileSet(), "example_test.go", src, parser.ParseComments|parser.SkipObjectResolution)
	if err != nil {
		t.Fatal(err)
	}
	var imports, body string
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.GenDecl:
			if d.Tok == token.IMPORT {
				imports = string(src[d.Pos()-f.FileStart : d.End()-f.FileStart])
			}
		case *ast.FuncDecl:
			if d.Name.Name == "Example" && d.Recv == nil {
				body = string(src[d.Body.Lbrace+1-f.FileStart : d.Body.Rbrace-f.FileStart])
			}
		}
	}
	if imports == "" || body == "" {
		t.Fatalf("example_test.go has no import block or no func Example")
	}
	want := "package main\n\n" + imports + "\n\nfunc main() {" + body + "}\n"

	readme, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, usage, ok := strings.Cut(string(readme), "\n## Usage\n")
	if !ok {
		t.Fatal("README.md has no ## Usage section")
	}
	_, block, ok := strings.Cut(usage, "```go\n")
	if !ok {
		t.Fatal("README.md's ## Usage section has no ```go block")
	}
	got, _, ok := strings.Cut(block, "```")
	if !ok {
		t.Fatal("README.md's usage ```go block does not end")
	}
	if got != want {
		gl, wl := strings.Split(got, "\n"), strings.Split(want, "\n")
		line := 0
		for line < min(len(gl), len(wl)) && gl[line] == wl[line] {
			line++
		}
		t.Errorf("README.md's usage program differs from client.Example at its line %d:\n got: %q\nwant: %q\nThe program to paste:\n%s",
			line+1, at(gl, line), at(wl, line), want)
	}
}

func at(lines []string, i int) string {
	if i < len(lines) {
		return lines[i]
	}
	return "(end)"
}
