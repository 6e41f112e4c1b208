package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// events is a go test -json stream of one package: TestRan passes,
// TestSkips skips with a reason, TestFails fails with output, and
// TestSub's subtest "off" skips while "on" passes.
const events = `{"Action":"start","Package":"p"}
{"Action":"run","Package":"p","Test":"TestRan"}
{"Action":"output","Package":"p","Test":"TestRan","Output":"=== RUN   TestRan\n"}
{"Action":"output","Package":"p","Test":"TestRan","Output":"    a_test.go:5: a log line\n"}
{"Action":"pass","Package":"p","Test":"TestRan"}
{"Action":"run","Package":"p","Test":"TestSkips"}
{"Action":"output","Package":"p","Test":"TestSkips","Output":"=== RUN   TestSkips\n"}
{"Action":"output","Package":"p","Test":"TestSkips","Output":"    a_test.go:9: needs a GPU\n"}
{"Action":"output","Package":"p","Test":"TestSkips","Output":"--- SKIP: TestSkips (0.00s)\n"}
{"Action":"skip","Package":"p","Test":"TestSkips"}
{"Action":"run","Package":"p","Test":"TestSub"}
{"Action":"run","Package":"p","Test":"TestSub/off"}
{"Action":"output","Package":"p","Test":"TestSub/off","Output":"    a_test.go:12: off here\n"}
{"Action":"skip","Package":"p","Test":"TestSub/off"}
{"Action":"run","Package":"p","Test":"TestSub/on"}
{"Action":"pass","Package":"p","Test":"TestSub/on"}
{"Action":"pass","Package":"p","Test":"TestSub"}
{"Action":"run","Package":"p","Test":"TestFails"}
{"Action":"output","Package":"p","Test":"TestFails","Output":"=== RUN   TestFails\n"}
{"Action":"output","Package":"p","Test":"TestFails","Output":"    a_test.go:20: Get(1) = 2, want 1\n"}
{"Action":"output","Package":"p","Test":"TestFails","Output":"--- FAIL: TestFails (0.00s)\n"}
{"Action":"fail","Package":"p","Test":"TestFails"}
{"Action":"output","Package":"p","Output":"FAIL\n"}
{"Action":"output","Package":"p","Output":"FAIL\tp\t0.01s\n"}
{"Action":"fail","Package":"p"}
`

// TestCondensePrintsWhatGoTestPrints: a passing or skipped test's output
// is dropped, a failing one's printed, and so are the package's lines.
func TestCondensePrintsWhatGoTestPrints(t *testing.T) {
	var b strings.Builder
	if err := condense(&b, strings.NewReader(events+"not an event\n")); err != nil {
		t.Fatal(err)
	}
	want := "=== RUN   TestFails\n    a_test.go:20: Get(1) = 2, want 1\n--- FAIL: TestFails (0.00s)\nFAIL\nFAIL\tp\t0.01s\nnot an event\n"
	if got := b.String(); got != want {
		t.Errorf("condense printed\n%s\nwant\n%s", got, want)
	}
}

// TestCheckFailsOnTestSkippedInEveryStage: a test or subtest that skipped
// in every stage where it appeared is reported; one that ran in some stage
// is not, even where it skipped in another.
func TestCheckFailsOnTestSkippedInEveryStage(t *testing.T) {
	dir := t.TempDir()
	write := func(name, s string) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	race := write("race.json", events)
	// Another stage where TestSkips runs, and TestSub/off skips again.
	norace := write("norace.json", `{"Action":"run","Package":"p","Test":"TestSkips"}
{"Action":"pass","Package":"p","Test":"TestSkips"}
{"Action":"run","Package":"p","Test":"TestSub/off"}
{"Action":"skip","Package":"p","Test":"TestSub/off"}
`)
	for _, tc := range []struct {
		name  string
		files []string
		never int
		says  []string
	}{
		{"one stage", []string{race}, 2, []string{"p TestSkips", "race: a_test.go:9: needs a GPU", "p TestSub/off", "race: a_test.go:12: off here"}},
		{"two stages", []string{race, norace}, 1, []string{"p TestSub/off", "race: a_test.go:12: off here", "norace: (no reason given)"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var b strings.Builder
			never, err := check(&b, tc.files)
			if err != nil {
				t.Fatal(err)
			}
			if never != tc.never {
				t.Errorf("check = %d, want %d:\n%s", never, tc.never, b.String())
			}
			for _, s := range tc.says {
				if !strings.Contains(b.String(), s) {
					t.Errorf("check's report lacks %q:\n%s", s, b.String())
				}
			}
			if tc.never == 1 && strings.Contains(b.String(), "TestSkips") {
				t.Errorf("TestSkips ran in a stage, and is reported:\n%s", b.String())
			}
		})
	}
}

// TestRunKeepsEventsOfRealGoTest runs go test -json through run on a
// package whose one test always skips, and check reports it; the exit
// status is go test's.
func TestRunKeepsEventsOfRealGoTest(t *testing.T) {
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go tool in PATH")
	}
	dir := t.TempDir()
	for name, src := range map[string]string{
		"go.mod":       "module skipper\n\ngo 1.22\n",
		"skip_test.go": "package skipper\n\nimport \"testing\"\n\nfunc TestAlwaysSkips(t *testing.T) { t.Skip(\"never runs\") }\n\nfunc TestRuns(t *testing.T) {}\n",
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Chdir(dir)
	log := filepath.Join(dir, "out", "stage.json")
	if code := run(log, []string{goTool, "test", "-json", "-count=1", "."}); code != 0 {
		t.Fatalf("run = %d, want 0", code)
	}
	var b strings.Builder
	never, err := check(&b, []string{log})
	if err != nil {
		t.Fatal(err)
	}
	if never != 1 || !strings.Contains(b.String(), "skipper TestAlwaysSkips") || !strings.Contains(b.String(), "stage: skip_test.go:5: never runs") {
		t.Errorf("check = %d, want 1 naming TestAlwaysSkips:\n%s", never, b.String())
	}
}
