package page

import (
	"encoding/xml"
	"strconv"
	"strings"
	"testing"
)

func sample(cold bool) Result {
	r := Result{State: StateDone, Adapter: "SwiftShader [CPU, WebGPU]", Layers: 2, Width: 64, Heads: 4, Vocab: 256, MaxSeq: 32,
		Prompt: []uint32{3, 14}, Tokens: 4, Generated: []uint32{1, 2, 3, 4}, LaunchesPerToken: 31,
		CPUCheck: true, MaxAbsError: 1e-6, TTFTMsWarm: 2.5, TokenMs: []float64{1.1, 0.9, 1.0}, TokenMsMedian: 1.0,
		WarmupCompiles: 9, CompilesAvoided: 9}
	if cold {
		r.Cold, r.ColdCPUCheck, r.TTFTMsCold, r.ColdTokenMs, r.ColdTokenMsMed = true, true, 250, []float64{40, 1.2, 0}, 1.2
	}
	return r
}

// svgDoc is what the tests read of a chart.
type svgDoc struct {
	Rects []struct {
		Class string `xml:"class,attr"`
		Name  string `xml:"data-name,attr"`
	} `xml:"rect"`
	Lines []struct {
		Name   string `xml:"data-name,attr"`
		Points string `xml:"points,attr"`
	} `xml:"polyline"`
	Texts []string `xml:"text"`
}

func TestChart(t *testing.T) {
	for _, tc := range []struct {
		name      string
		cold      bool
		bars      []string
		points    map[string]int // per series, the points drawn
		wantTexts []string
	}{
		{"warm only", false, []string{"warm"}, map[string]int{"warm": 3}, []string{"2.5", "warm: median 1.000 ms"}},
		// The cold run's step of 0 ms is left out of its line.
		{"cold and warm", true, []string{"cold", "warm"}, map[string]int{"warm": 3, "cold": 2}, []string{"250.0", "cold: median 1.200 ms"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := Chart(sample(tc.cold))
			var doc svgDoc
			if err := xml.Unmarshal([]byte(s), &doc); err != nil {
				t.Fatalf("Chart is not well-formed XML: %v\n%s", err, s)
			}
			var bars []string
			for _, r := range doc.Rects {
				if r.Class == "bar" {
					bars = append(bars, r.Name)
				}
			}
			if strings.Join(bars, ",") != strings.Join(tc.bars, ",") {
				t.Errorf("bars = %q, want %q", bars, tc.bars)
			}
			got := map[string]int{}
			for _, l := range doc.Lines {
				got[l.Name] = len(strings.Fields(l.Points))
			}
			if len(got) != len(tc.points) {
				t.Errorf("series = %v, want %v", got, tc.points)
			}
			for name, n := range tc.points {
				if got[name] != n {
					t.Errorf("series %s has %d points, want %d", name, got[name], n)
				}
			}
			all := strings.Join(doc.Texts, "|")
			for _, w := range tc.wantTexts {
				if !strings.Contains(all, w) {
					t.Errorf("texts %q lack %q", all, w)
				}
			}
		})
	}
}

func TestChartEmpty(t *testing.T) {
	r := sample(false)
	r.TokenMs, r.Adapter = nil, `<b>&"`
	s := Chart(r)
	if err := xml.Unmarshal([]byte(s), new(svgDoc)); err != nil {
		t.Fatalf("Chart with no steps is not well-formed: %v", err)
	}
	if !strings.Contains(s, "no decode steps") {
		t.Errorf("Chart with no steps = %s, want it to say so", s)
	}
}

func TestRows(t *testing.T) {
	value := func(rows []Row, label string) (string, bool) {
		for _, r := range rows {
			if r.Label == label {
				return r.Value, true
			}
		}
		return "", false
	}
	warm := Rows(sample(false))
	if v, _ := value(warm, "CPU check"); !strings.HasPrefix(v, "passed") {
		t.Errorf("CPU check = %q, want passed", v)
	}
	if v, _ := value(warm, "compiles avoided"); !strings.HasPrefix(v, "9 ") {
		t.Errorf("compiles avoided = %q, want 9", v)
	}
	if _, ok := value(warm, "time to first token, cold"); ok {
		t.Errorf("Rows without a cold run show a cold row")
	}
	if v, _ := value(Rows(sample(true)), "time to first token, cold"); !strings.Contains(v, "250.00 ms") || !strings.Contains(v, "100.0x") {
		t.Errorf("time to first token, cold = %q, want 250.00 ms, 100.0x warm", v)
	}
	failed := sample(false)
	failed.CPUCheck = false
	if v, _ := value(Rows(failed), "CPU check"); v != "FAILED" {
		t.Errorf("CPU check of a failed check = %q, want FAILED", v)
	}
	failed.Generated = nil
	if v, _ := value(Rows(failed), "CPU check"); v != "not run" {
		t.Errorf("CPU check before a generation = %q, want not run", v)
	}
}

func TestParseQuery(t *testing.T) {
	cfg, err := ParseQuery("")
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Model.Layers != 4 || cfg.Model.Width != 128 || cfg.Tokens != 32 || len(cfg.Prompt) != 16 || !cfg.Cold {
		t.Errorf("ParseQuery(\"\") = %+v, want generate's defaults", cfg)
	}
	if !cfg.Store || cfg.Export {
		t.Errorf("ParseQuery(\"\") = %+v, want the tune cache in localStorage, no bundle exported", cfg)
	}
	cfg, err = ParseQuery("?layers=2&width=64&tokens=8&prompt-len=4&seed=7&cold=0&store=false&export=1")
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Model.Layers != 2 || cfg.Model.Width != 64 || cfg.Tokens != 8 || len(cfg.Prompt) != 4 || cfg.Model.Seed != 7 || cfg.Cold || cfg.Store || !cfg.Export {
		t.Errorf("ParseQuery = %+v, want layers 2, width 64, tokens 8, a prompt of 4, seed 7, no cold run, memory, a bundle exported", cfg)
	}
	for _, tc := range []struct{ q, want string }{
		{"tokens=x", `tokens="x" is not an integer`},
		{"tokens=1", "tokens must be at least 2"},
		{"seed=-1", "seed"},
		{"cold=maybe", `cold="maybe" is not a boolean`},
		{"store=2", `store="2" is not a boolean`},
		{"export=yes", `export="yes" is not a boolean`},
		{"prompt-len=0", "prompt-len must be in 1..64"},
		{"width=100&heads=3", "width"},
		{"tokens=60", "maximum sequence length 64"},
		{"%zz", "the page's query"},
	} {
		if _, err := ParseQuery(tc.q); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("ParseQuery(%q) = %v, want an error with %q", tc.q, err, tc.want)
		}
	}
}

func TestLogTicks(t *testing.T) {
	for _, tc := range []struct {
		lo, hi float64
		want   string
	}{
		{8, 90, "5 10 20 50 100"},
		{10, 100, "10 20 50 100"},
		{0.3, 0.4, "0.2 0.5"},
		{3, 3, "2 5"},
		{1, 1, "1 2"},
		{0.004, 250, "0.002 0.005 0.01 0.02 0.05 0.1 0.2 0.5 1 2 5 10 20 50 100 200 500"},
	} {
		var got []string
		for _, v := range logTicks(tc.lo, tc.hi) {
			got = append(got, strconv.FormatFloat(v, 'g', 6, 64))
		}
		if s := strings.Join(got, " "); s != tc.want {
			t.Errorf("logTicks(%g, %g) = %s, want %s", tc.lo, tc.hi, s, tc.want)
		}
	}
}
