package fuzz

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/streamgate/streamgate/registry"
)

var updateSeeds = flag.Bool("update-seeds", false, "rewrite the seed corpora under testdata/fuzz from the scenarios in seeds_test.go")

const (
	E = registry.Execute
	D = registry.Discard
)

var (
	s11 = streams[0] // 1/1
	s12 = streams[1] // 1/2
	s21 = streams[2] // 2/1: stream 1 again, on service 2
)

// Builders for readable scenarios. Overrides are named by their Set's
// position (among all Sets in regOps, among the goroutine's in a program).
func set(i int, m registry.StreamMode, s registry.ServiceStream) regOp {
	return regOp{Kind: opSet, Mode: m, Stream: s, Override: i}
}
func burst(i int, a byte) regOp { return regOp{Kind: opBurst, Arg: a, Override: i} }
func rel(i int) regOp           { return regOp{Kind: opRelease, Override: i} }
func again(i int) regOp         { return regOp{Kind: opReleaseAgain, Override: i} }
func relShared(i int) regOp     { return regOp{Kind: opRelease, Override: i, Shared: true} }
func mode(s registry.ServiceStream, def registry.StreamMode) regOp {
	return regOp{Kind: opMode, Stream: s, Mode: def}
}
func resolve(s registry.ServiceStream) regOp { return regOp{Kind: opResolve, Stream: s} }
func live(m registry.StreamMode) regOp       { return regOp{Kind: opLive, Mode: m} }
func setProcess(p registry.ProcessMode) regOp {
	return regOp{Kind: opSetProcessMode, Process: p}
}
func process() regOp { return regOp{Kind: opProcessMode} }

// reads of s under both defaults.
func reads(s registry.ServiceStream) []regOp { return []regOp{mode(s, E), mode(s, D)} }

func seq(parts ...any) regOps {
	var ops regOps
	for _, p := range parts {
		switch p := p.(type) {
		case regOp:
			ops = append(ops, p)
		case []regOp:
			ops = append(ops, p...)
		default:
			panic(fmt.Sprintf("seq: %T", p))
		}
	}
	return ops
}

// nested sets three overrides on s11, Execute/Discard/Execute, then
// releases them in order.
func nested(order ...int) regOps {
	ops := seq(set(0, E, s11), reads(s11), set(1, D, s11), reads(s11), set(2, E, s11), reads(s11), live(E), live(D))
	for _, i := range order {
		ops = append(ops, seq(rel(i), reads(s11), live(E), live(D))...)
	}
	return ops
}

// registrySeeds are the FuzzRegistry seeds, by file name.
var registrySeeds = map[string]regOps{
	"nested-release-oldest-first": nested(0, 1, 2),
	"nested-release-newest-first": nested(2, 1, 0),
	"nested-release-middle-first": nested(1, 2, 0),
	"nested-release-middle-last":  nested(0, 2, 1),
	// The inner override sets the default (Discard) inside one that sets
	// the opposite: the fast path must not answer while the outer lives.
	"default-nested-inside-opposite": seq(set(0, E, s11), set(1, D, s11), reads(s11), live(E), live(D),
		rel(1), reads(s11), rel(0), reads(s11)),
	"opposite-nested-inside-default": seq(set(0, D, s11), set(1, E, s11), reads(s11),
		rel(0), reads(s11), rel(1), reads(s11)),
	"same-stream-two-services": seq(set(0, E, s11), reads(s21), set(1, D, s21), reads(s11), reads(s21),
		rel(0), reads(s21), reads(s11), rel(1), reads(s21)),
	"double-release": seq(set(0, E, s11), set(1, E, s11), rel(1), again(1), reads(s11), live(E),
		rel(0), again(0), again(1), reads(s11), live(E)),
	"process-mode": seq(resolve(s11), setProcess(registry.ProcessCompile), resolve(s11), set(0, E, s11),
		resolve(s11), resolve(s12), setProcess(registry.ProcessCompileAndAutotune), process(), resolve(s11),
		setProcess(registry.ProcessCompileAndAutotune), rel(0), resolve(s11), setProcess(registry.ProcessExecute), resolve(s11)),
	// Two bursts of hundreds of overrides nest inside and around overrides
	// of the read streams, so the trie grows deep, and are released in a
	// scattered order, the older burst first.
	"bursts-nested": seq(set(0, E, s11), burst(1, 0xff), reads(s11), live(E), live(D), set(2, D, s12),
		burst(3, 0x40), reads(s11), reads(s12), rel(1), reads(s11), live(E), rel(0), reads(s11), rel(3), reads(s12), rel(2), live(D)),
}

// concurrentSeeds are the FuzzConcurrent seeds, by file name.
var concurrentSeeds = map[string]program{
	// Two goroutines nest overrides on one stream and release them in
	// different orders while a third reads.
	"nested-one-stream": {
		{set(0, E, s11), set(1, D, s11), set(2, E, s11), rel(0), rel(1), rel(2)},
		{set(0, D, s11), set(1, E, s11), rel(1), mode(s11, D), rel(0), mode(s11, E)},
		{mode(s11, D), mode(s11, E), live(E), mode(s11, D), live(D), mode(s11, D)},
	},
	"default-nested-inside-opposite": {
		{set(0, E, s11), set(1, D, s11), mode(s11, D), rel(1), mode(s11, D), rel(0)},
		{mode(s11, D), mode(s11, D), mode(s11, D), mode(s11, D)},
	},
	"same-stream-two-services": {
		{set(0, E, s11), mode(s21, D), rel(0), mode(s21, D)},
		{set(0, E, s21), mode(s11, D), rel(0), mode(s11, D)},
		{mode(s11, D), mode(s21, D), live(E), mode(s11, D), mode(s21, D)},
	},
	"process-mode-and-resolve": {
		{setProcess(registry.ProcessCompile), resolve(s11), setProcess(registry.ProcessExecute), process()},
		{set(0, E, s11), resolve(s11), resolve(s12), rel(0), resolve(s11)},
		{setProcess(registry.ProcessCompileAndAutotune), resolve(s12), process(), resolve(s11)},
	},
	// A burst on one goroutine while others nest, read and release any
	// override, one of the burst's included.
	"burst-while-nesting": {
		{burst(0, 0x21), mode(s11, D), rel(0), live(E)},
		{set(0, E, s11), set(1, D, s11), mode(s11, D), rel(1), relShared(200), rel(0)},
		{mode(s11, D), live(E), relShared(7), mode(s12, E), live(D)},
	},
	"release-from-other-goroutines": {
		{set(0, E, s11), set(1, D, s12), set(2, E, s21), mode(s11, D), rel(0), again(0)},
		{relShared(0), relShared(1), mode(s11, D), relShared(2), live(E)},
		{relShared(2), mode(s12, E), relShared(0), live(D)},
		{mode(s21, D), live(E), mode(s11, D), mode(s12, E)},
	},
}

func sliceOpOf(k sliceKind) sliceOp { return sliceOp{Kind: k} }
func appendOp(xs ...int) sliceOp    { return sliceOp{Kind: sliceAppend, Elems: xs} }
func deleteOp(k predKind, a, b int) sliceOp {
	return sliceOp{Kind: sliceDelete, Pred: pred{Kind: k, A: a, B: b}}
}

// sliceSeeds are the FuzzLockfree seeds, by file name.
var sliceSeeds = map[string]sliceOps{
	"append-delete-snapshots": {sliceOpOf(sliceLoad), appendOp(1, 2, 3), sliceOpOf(sliceLoad), appendOp(4),
		deleteOp(predMod, 2, 0), sliceOpOf(sliceLoad), deleteOp(predEqual, 7, 0), sliceOpOf(sliceLen)},
	"delete-all-then-append": {appendOp(5, 5, 5), deleteOp(predEqual, 5, 0), sliceOpOf(sliceLoad),
		appendOp(), appendOp(0), deleteOp(predAll, 0, 0), deleteOp(predNone, 0, 0), sliceOpOf(sliceLen)},
	"delete-first-middle-last": {appendOp(1, 2, 3), appendOp(4, 5, 6), sliceOpOf(sliceLoad),
		deleteOp(predEqual, 1, 0), deleteOp(predEqual, 4, 0), deleteOp(predEqual, 6, 0), deleteOp(predLess, 3, 0)},
}

// corpusFile is a Go fuzz corpus file holding data.
func corpusFile(data []byte) []byte {
	return []byte("go test fuzz v1\n[]byte(" + strconv.Quote(string(data)) + ")\n")
}

// readCorpusFile returns the []byte value of a one-value corpus file.
func readCorpusFile(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	body, ok := strings.CutPrefix(string(b), "go test fuzz v1\n[]byte(")
	body, ok2 := strings.CutSuffix(strings.TrimSpace(body), ")")
	if !ok || !ok2 {
		t.Fatalf("%s: not a one-[]byte corpus file", path)
	}
	s, err := strconv.Unquote(body)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return []byte(s)
}

// TestSeedCorpus checks that every scenario above is committed as a corpus
// file that decodes back to it (run with -update-seeds to rewrite them).
// `go test` replays those files through the fuzz targets.
func TestSeedCorpus(t *testing.T) {
	type seed struct {
		data []byte
		text string // what the data must decode to
	}
	targets := map[string]map[string]seed{"FuzzRegistry": {}, "FuzzConcurrent": {}, "FuzzLockfree": {}}
	for name, ops := range registrySeeds {
		targets["FuzzRegistry"][name] = seed{encodeOps(ops), ops.String()}
	}
	for name, p := range concurrentSeeds {
		targets["FuzzConcurrent"][name] = seed{encodeProgram(p), p.String()}
	}
	for name, ops := range sliceSeeds {
		targets["FuzzLockfree"][name] = seed{encodeSliceOps(ops), ops.String()}
	}
	for target, seeds := range targets {
		for name, sd := range seeds {
			t.Run(target+"/"+name, func(t *testing.T) {
				var got string
				switch target {
				case "FuzzRegistry":
					got = decodeOps(sd.data).String()
				case "FuzzConcurrent":
					got = decodeProgram(sd.data).String()
				case "FuzzLockfree":
					got = decodeSliceOps(sd.data).String()
				}
				if got != sd.text {
					t.Fatalf("the encoding decodes to\n%vwant\n%v", got, sd.text)
				}
				path := filepath.Join("testdata", "fuzz", target, name)
				if *updateSeeds {
					if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
						t.Fatal(err)
					}
					if err := os.WriteFile(path, corpusFile(sd.data), 0o644); err != nil {
						t.Fatal(err)
					}
				}
				if data := readCorpusFile(t, path); !bytes.Equal(data, sd.data) {
					t.Errorf("%s holds %q, want %q (run go test ./fuzz -run TestSeedCorpus -update-seeds)", path, data, sd.data)
				}
			})
		}
	}
}

// TestBurstsAreCapped: past maxBursts, a Set with the burst flag decodes as
// a plain Set, so no input runs for seconds (the fuzzing engine would count
// it as hung: an input of a thousand bursts did).
func TestBurstsAreCapped(t *testing.T) {
	data := bytes.Repeat([]byte{byte(opSet) | 0x80, 0xe0}, 50)
	bursts, sets := 0, 0
	for _, op := range decodeOps(data) {
		switch op.Kind {
		case opBurst:
			bursts++
		case opSet:
			sets++
		}
	}
	if bursts != maxBursts || sets != 50-maxBursts {
		t.Errorf("DecodeOps(50 bursts) = %d bursts and %d sets, want %d and %d", bursts, sets, maxBursts, 50-maxBursts)
	}
}
