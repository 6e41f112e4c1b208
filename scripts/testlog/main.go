// Command testlog keeps the events of make test's go test runs and checks,
// once every stage has run, that each test ran in at least one of them: a
// test that skips in every stage (under -race in the one stage that runs
// its package, say) proves nothing, and fails the check.
//
//	testlog run FILE -- COMMAND [ARG...]
//
// runs COMMAND, a go test -json command line, appends the events it prints
// to FILE, and prints what go test prints without -json or -v: each
// package's result line, the output of a failing test, build errors. It
// exits with COMMAND's status.
//
//	testlog check FILE...
//
// reads the events of every FILE (one a stage) and fails, naming each
// test, where it skipped and why, when a test or subtest skipped wherever
// it appeared and passed or failed nowhere.
package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
)

func main() {
	if len(os.Args) >= 4 && os.Args[1] == "run" && os.Args[3] == "--" && len(os.Args) > 4 {
		os.Exit(run(os.Args[2], os.Args[4:]))
	}
	if len(os.Args) >= 3 && os.Args[1] == "check" {
		never, err := check(os.Stdout, os.Args[2:])
		if err != nil {
			fmt.Fprintln(os.Stderr, "testlog:", err)
			os.Exit(2)
		}
		if never > 0 {
			os.Exit(1)
		}
		return
	}
	fmt.Fprintln(os.Stderr, "usage: testlog run FILE -- COMMAND [ARG...]\n       testlog check FILE...")
	os.Exit(2)
}

// event is a go test -json event (go doc test2json), the fields used here.
type event struct {
	Action  string
	Package string
	Test    string
	Output  string
}

// run runs args, keeping its events in the file at path, and returns its
// exit status.
func run(path string, args []string) int {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		fmt.Fprintln(os.Stderr, "testlog:", err)
		return 2
	}
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		fmt.Fprintln(os.Stderr, "testlog:", err)
		return 2
	}
	defer f.Close()
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Stdin, cmd.Stderr = os.Stdin, os.Stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		fmt.Fprintln(os.Stderr, "testlog:", err)
		return 2
	}
	if err := cmd.Start(); err != nil {
		fmt.Fprintln(os.Stderr, "testlog:", err)
		return 2
	}
	werr := condense(os.Stdout, io.TeeReader(out, f))
	err = cmd.Wait()
	if werr != nil {
		fmt.Fprintln(os.Stderr, "testlog:", werr)
	}
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		return ee.ExitCode()
	case err != nil:
		fmt.Fprintln(os.Stderr, "testlog:", err)
		return 2
	case werr != nil:
		return 2
	}
	return 0
}

// condense prints the events read from r as go test prints them without
// -v: a package's own lines (its result), build output, and the output of
// each test that fails (or of each test still running when its package
// fails: a panic, a timeout). A line that is not an event is printed as it
// is.
func condense(w io.Writer, r io.Reader) error {
	held := map[[2]string][]string{} // a running test's output
	flush := func(pkg string) {      // the held output of pkg's tests
		keys := slices.SortedFunc(maps.Keys(held), func(a, b [2]string) int { return strings.Compare(a[1], b[1]) })
		for _, k := range keys {
			if k[0] == pkg {
				fmt.Fprint(w, strings.Join(held[k], ""))
				delete(held, k)
			}
		}
	}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), 16<<20)
	for sc.Scan() {
		line := sc.Bytes()
		var e event
		if len(line) == 0 || line[0] != '{' || json.Unmarshal(line, &e) != nil {
			fmt.Fprintf(w, "%s\n", line)
			continue
		}
		key := [2]string{e.Package, e.Test}
		switch {
		case e.Action == "build-output":
			fmt.Fprint(w, e.Output)
		case e.Test != "" && e.Action == "output":
			held[key] = append(held[key], e.Output)
		case e.Test != "" && e.Action == "fail":
			fmt.Fprint(w, strings.Join(held[key], ""))
			delete(held, key)
		case e.Test != "" && (e.Action == "pass" || e.Action == "skip"):
			delete(held, key)
		case e.Action == "output" && e.Output != "PASS\n":
			if strings.HasPrefix(e.Output, "FAIL") {
				flush(e.Package)
			}
			fmt.Fprint(w, e.Output)
		case e.Action == "fail":
			flush(e.Package)
		}
	}
	return sc.Err()
}

// testRecord is what the stages did with one test.
type testRecord struct {
	ran     bool
	skipped []string // "stage: reason", one a skip
}

// check reads the events of files and writes the tests that skipped in
// every stage they appeared in, returning how many.
func check(w io.Writer, files []string) (int, error) {
	tests := map[[2]string]*testRecord{}
	var order [][2]string
	for _, path := range files {
		stage := strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
		f, err := os.Open(path)
		if err != nil {
			return 0, err
		}
		output := map[[2]string][]string{}
		sc := bufio.NewScanner(f)
		sc.Buffer(make([]byte, 0, 64<<10), 16<<20)
		for sc.Scan() {
			var e event
			if json.Unmarshal(sc.Bytes(), &e) != nil || e.Test == "" {
				continue
			}
			key := [2]string{e.Package, e.Test}
			rec := tests[key]
			if rec == nil {
				rec = &testRecord{}
				tests[key] = rec
				order = append(order, key)
			}
			switch e.Action {
			case "output":
				output[key] = append(output[key], e.Output)
			case "pass", "fail":
				rec.ran = true
				delete(output, key)
			case "skip":
				rec.skipped = append(rec.skipped, stage+": "+skipReason(output[key]))
				delete(output, key)
			}
		}
		err = sc.Err()
		f.Close()
		if err != nil {
			return 0, fmt.Errorf("%s: %w", path, err)
		}
	}
	never := 0
	for _, key := range order {
		rec := tests[key]
		if rec.ran || len(rec.skipped) == 0 {
			continue
		}
		if never == 0 {
			fmt.Fprintf(w, "tests that skipped in every stage of %s (each must run in one):\n", strings.Join(files, ", "))
		}
		never++
		fmt.Fprintf(w, "  %s %s\n", key[0], key[1])
		for _, s := range rec.skipped {
			fmt.Fprintf(w, "      %s\n", s)
		}
	}
	if never == 0 {
		fmt.Fprintf(w, "every test of %d ran in some stage (%d stages)\n", len(tests), len(files))
	}
	return never, nil
}

// skipReason is what a skipped test said: its output less the framework's
// lines.
func skipReason(lines []string) string {
	var said []string
	for _, l := range lines {
		l = strings.TrimSpace(l)
		if l == "" || strings.HasPrefix(l, "=== ") || strings.HasPrefix(l, "--- SKIP") {
			continue
		}
		said = append(said, l)
	}
	if len(said) == 0 {
		return "(no reason given)"
	}
	return strings.Join(said, " | ")
}
