package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Modules for the wgsl check tests.
const (
	// addWGSL is valid: three bindings, one of them a uniform.
	addWGSL = `@group(0) @binding(0) var<uniform> n: vec4<u32>;
@group(0) @binding(1) var<storage, read> a: array<f32>;
@group(0) @binding(2) var<storage, read_write> out: array<f32>;
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
	if (id.x < n.x) { out[id.x] = a[id.x] + 1.0; }
}
`
	// badWGSL uses an undefined name on line 3, column 38.
	badWGSL = `@group(0) @binding(0) var<storage, read_write> out: array<f32>;
@compute @workgroup_size(1)
fn main() { out[0] = 1.0 + undefined_name; }
`
	// parenWGSL leaves the ( at line 4, column 10 unclosed; an if ( follows.
	// (Two literals: wgpu/wgsl's TestRepoKernels parses every one that
	// holds a kernel, and this one is bad on purpose.)
	parenWGSL = `@group(0) @binding(0) var<storage, read_write> out: array<f32>;
@compute @workgroup_size(1)
` + `fn main() {
	let a = (1.0 + 2.0;
	out[0] = a;
	if (a > 1.0) {
		out[1] = 2.0;
	}
}
`
	// overrideWGSL needs a value for WG; T has a default and sizes a
	// workgroup array.
	overrideWGSL = `override WG: u32;
@id(7) override T: u32 = 4;
var<workgroup> tile: array<f32, T * T>;
@group(0) @binding(0) var<storage, read_write> out: array<f32>;
@compute @workgroup_size(WG)
fn main(@builtin(local_invocation_index) i: u32) {
	tile[i % (T * T)] = 2;
	workgroupBarrier();
	out[i] = tile[0];
}
`
)

// writeWGSL writes each name: source pair to a file in a temporary
// directory and returns the directory.
func writeWGSL(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, src := range files {
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644))
	}
	return dir
}

// wgslCheckCase is one run of streamgate wgsl check for TestWGSLCheck.
type wgslCheckCase struct {
	name       string
	args       []string
	code       int
	stdout     []string // substrings of stdout
	stderr     []string // substrings of stderr
	notStdout  []string
	emptyError bool // stderr is empty
}

// wgslCheckFileCases check files without overrides: the report of a
// valid one, the positions of errors, and every file reported.
func wgslCheckFileCases(add, bad, paren, missing string) []wgslCheckCase {
	return []wgslCheckCase{
		{
			name: "valid",
			args: []string{add},
			stdout: []string{
				add + ":\n",
				"  main: @compute @workgroup_size(64, 1, 1)\n",
				"    group  binding  name  kind                type        min size\n",
				"    0      0        n     uniform             vec4<u32>   16\n",
				"    0      1        a     storage-read        array<f32>  4\n",
				"    0      2        out   storage-read-write  array<f32>  4\n",
			},
			notStdout:  []string{"lowered"},
			emptyError: true,
		},
		{
			name:   "error has its position",
			args:   []string{bad},
			code:   1,
			stderr: []string{bad + ":3:28: no definition in scope for identifier: `undefined_name`"},
		},
		{
			name:   "every file is reported",
			args:   []string{bad, missing, add},
			code:   1,
			stdout: []string{add + ":\n", "    0      2        out"},
			stderr: []string{bad + ":3:28: ", missing + ": no such file or directory\n"},
		},
		{
			name:   "unclosed bracket at the bracket",
			args:   []string{paren},
			code:   1,
			stderr: []string{paren + ":4:10: unclosed \"(\"\n"},
		},
		{name: "no files", code: 2, stderr: []string{"streamgate wgsl check: no files\nsee 'streamgate help wgsl check'\n"}},
	}
}

// wgslCheckOverrideCases check the override file over (and add beside
// it): -D, its errors, and -lowered.
func wgslCheckOverrideCases(over, add string) []wgslCheckCase {
	return []wgslCheckCase{
		{
			name:   "override without a value",
			args:   []string{over},
			code:   1,
			stderr: []string{over + ":1:1: override WG has no default: give it a value with -D WG=…\n"},
		},
		{
			name:       "override set by -D",
			args:       []string{"-D", "WG=32", over},
			stdout:     []string{"  main: @compute @workgroup_size(32, 1, 1)\n", "    0      0        out   storage-read-write  array<f32>  4\n"},
			emptyError: true,
		},
		{
			name:       "-D applies to the files that declare it",
			args:       []string{"-D", "WG=16", "-D", "7=2", over, add},
			stdout:     []string{"@workgroup_size(16, 1, 1)", "@workgroup_size(64, 1, 1)"},
			emptyError: true,
		},
		{
			name:      "-D that no file declares",
			args:      []string{"-D", "WG=16", "-D", "NOPE=1", over},
			code:      2, // a usage error, found before any file is checked
			notStdout: []string{"@workgroup_size"},
			stderr:    []string{"streamgate wgsl check: -D NOPE: no file declares override NOPE\nsee 'streamgate help wgsl check'\n"},
		},
		{
			name:      "a flag after a file",
			args:      []string{over, "-D", "WG=2"},
			code:      2,
			notStdout: []string{over},
			stderr:    []string{"streamgate wgsl check: -D after a file: the flags go before the files (streamgate wgsl check [flags] FILE...)\n"},
		},
		{
			name:   "override set by @id",
			args:   []string{"-D", "7=3", "-D", "WG=4", over},
			stdout: []string{"@workgroup_size(4, 1, 1)"},
		},
		{
			name:   "-D past a device limit",
			args:   []string{"-D", "WG=512", over},
			code:   1,
			stderr: []string{over + ": entry point main: @workgroup_size [512 1 1]: x is 512, more than maxComputeWorkgroupSizeX 256"},
		},
		{
			name:   "-D value its type cannot hold",
			args:   []string{"-D", "WG=-1", over},
			code:   1,
			stderr: []string{over + `: override WG: constant "WG": -1 is out of u32's range`},
		},
		{
			name: "-lowered concretizes literals",
			args: []string{"-lowered", "-D", "WG=8", over},
			stdout: []string{
				"  lowered (the source the driver gets):\n",
				"    const WG: u32 = 8u;\n",
				"    var<workgroup> tile: array<f32, 16>;\n",
				"2f;", // the abstract 2 of tile[...] = 2, concretized
			},
			emptyError: true,
		},
		{name: "bad -D", args: []string{"-D", "WG", over}, code: 2, stderr: []string{`invalid value "WG" for flag -D`}},
		{name: "bad -D value", args: []string{"-D", "WG=lots", over}, code: 2, stderr: []string{`"lots" is not a number`}},
	}
}

func TestWGSLCheck(t *testing.T) {
	dir := writeWGSL(t, map[string]string{"add.wgsl": addWGSL, "bad.wgsl": badWGSL, "override.wgsl": overrideWGSL, "paren.wgsl": parenWGSL})
	add, bad, over := filepath.Join(dir, "add.wgsl"), filepath.Join(dir, "bad.wgsl"), filepath.Join(dir, "override.wgsl")
	paren := filepath.Join(dir, "paren.wgsl")
	missing := filepath.Join(dir, "missing.wgsl")
	cases := append(wgslCheckFileCases(add, bad, paren, missing), wgslCheckOverrideCases(over, add)...)
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) { checkWGSLCheck(t, tc) })
	}
}

// checkWGSLCheck runs streamgate wgsl check with tc's arguments and checks
// its exit status and output.
func checkWGSLCheck(t *testing.T, tc wgslCheckCase) {
	code, out, errOut := runCmd(t, append([]string{"wgsl", "check"}, tc.args...)...)
	assert.Equal(t, tc.code, code, "wgsl check %s: exit status\nstdout:\n%s\nstderr:\n%s", strings.Join(tc.args, " "), out, errOut)
	for _, s := range tc.stdout {
		assert.Contains(t, out, s, "stdout")
	}
	for _, s := range tc.notStdout {
		assert.NotContains(t, out, s, "stdout")
	}
	for _, s := range tc.stderr {
		assert.Contains(t, errOut, s, "stderr")
	}
	if tc.emptyError {
		assert.Empty(t, errOut, "stderr")
	}
}

func TestWGSLCheckJSON(t *testing.T) {
	dir := writeWGSL(t, map[string]string{"add.wgsl": addWGSL, "bad.wgsl": badWGSL})
	add, bad := filepath.Join(dir, "add.wgsl"), filepath.Join(dir, "bad.wgsl")
	type binding struct {
		Group   uint32 `json:"group"`
		Binding uint32 `json:"binding"`
		Name    string `json:"name"`
		Kind    string `json:"kind"`
		Type    string `json:"type"`
		MinSize uint64 `json:"min_size"`
	}
	type report struct {
		File        string `json:"file"`
		OK          bool   `json:"ok"`
		Error       string `json:"error"`
		ErrorType   string `json:"error_type"`
		Line        int    `json:"line"`
		Column      int    `json:"column"`
		EntryPoints []struct {
			Name          string    `json:"name"`
			Stage         string    `json:"stage"`
			WorkgroupSize [3]uint32 `json:"workgroup_size"`
			Bindings      []binding `json:"bindings"`
		} `json:"entry_points"`
		Lowered *string `json:"lowered"`
	}
	for _, tc := range []struct {
		name    string
		lowered bool
	}{{"plain", false}, {"lowered", true}} {
		t.Run(tc.name, func(t *testing.T) {
			args := []string{"wgsl", "check", "-json"}
			if tc.lowered {
				args = append(args, "-lowered")
			}
			code, out, errOut := runCmd(t, append(args, add, bad)...)
			assert.Equal(t, 1, code, "exit status; stderr:\n%s", errOut)
			assert.Empty(t, errOut)
			dec := json.NewDecoder(strings.NewReader(out))
			dec.DisallowUnknownFields()
			var got []report
			for dec.More() {
				var r report
				require.NoError(t, dec.Decode(&r), "stdout:\n%s", out)
				got = append(got, r)
			}
			require.Len(t, got, 2, "one object per file:\n%s", out)
			assert.Equal(t, len(got), strings.Count(out, "\n"), "one object per line")

			ok := got[0]
			assert.Equal(t, add, ok.File)
			assert.True(t, ok.OK)
			assert.Empty(t, ok.Error)
			require.Len(t, ok.EntryPoints, 1)
			ep := ok.EntryPoints[0]
			assert.Equal(t, "main", ep.Name)
			assert.Equal(t, "compute", ep.Stage)
			assert.Equal(t, [3]uint32{64, 1, 1}, ep.WorkgroupSize)
			assert.Equal(t, []binding{
				{0, 0, "n", "uniform", "vec4<u32>", 16},
				{0, 1, "a", "storage-read", "array<f32>", 4},
				{0, 2, "out", "storage-read-write", "array<f32>", 4},
			}, ep.Bindings)
			if tc.lowered {
				require.NotNil(t, ok.Lowered)
				assert.Contains(t, *ok.Lowered, "1f", "the abstract 1.0 concretized")
			} else {
				assert.Nil(t, ok.Lowered, "lowered without -lowered")
			}
			assert.Contains(t, out, `"array<f32>"`, "types are not HTML-escaped")

			failed := got[1]
			assert.Equal(t, bad, failed.File)
			assert.False(t, failed.OK)
			assert.Equal(t, 3, failed.Line)
			assert.Equal(t, 28, failed.Column)
			assert.Equal(t, "Validation", failed.ErrorType)
			assert.Contains(t, failed.Error, "no definition in scope for identifier: `undefined_name`")
			assert.NotNil(t, failed.EntryPoints, "entry_points is [] for a file with an error")
			assert.Empty(t, failed.EntryPoints)
			assert.Nil(t, failed.Lowered)
		})
	}
}

// TestWGSLCheckKernels checks the warmup demo's kernels as files, with
// their default override values and with other ones.
func TestWGSLCheckKernels(t *testing.T) {
	var files []string
	for _, k := range []string{"matmul_naive", "matmul_tiled", "softmax_row", "softmax_group", "reduce"} {
		files = append(files, filepath.Join("..", "..", "internal", "workload", "kernels", k+".wgsl"))
	}
	for _, tc := range []struct {
		name string
		args []string
	}{
		{"defaults", nil},
		{"W=256 G=256 T=16", []string{"-D", "W=256", "-D", "G=256", "-D", "T=16"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			args := append(append([]string{"wgsl", "check"}, tc.args...), files...)
			code, out, errOut := runCmd(t, args...)
			assert.Equal(t, 0, code, "stdout:\n%s\nstderr:\n%s", out, errOut)
			for _, f := range files {
				assert.Contains(t, out, f+":\n")
			}
		})
	}
}

func TestHelpListsWGSLCheck(t *testing.T) {
	var out bytes.Buffer
	assert.Equal(t, 0, run(t.Context(), []string{"help"}, &out, &out))
	assert.Contains(t, out.String(), "  wgsl check ")
	code, help, _ := runCmd(t, "help", "wgsl", "check")
	assert.Equal(t, 0, code)
	assert.Contains(t, help, "usage: streamgate wgsl check [flags] FILE...")
	for _, flag := range []string{"-D name=value", "-json", "-lowered", "-device", "-adapter"} {
		assert.Contains(t, help, flag)
	}
}
