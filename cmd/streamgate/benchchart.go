package main

import (
	"fmt"
	"slices"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// writeModeCharts charts the Mode results, ns/op against k with one line
// per implementation, one panel per GOMAXPROCS (parallel readers), into
// dir/bench-mode.png and dir/bench-mode.svg. It returns the files written:
// none when no Mode case ran.
func writeModeCharts(dir string, results []*result, cpus []int) ([]string, error) {
	type series struct {
		impl string
		pts  map[int]float64 // k -> ns/op
	}
	var ks []int
	panels := map[int][]*series{} // procs -> one series per impl, in run order
	for _, r := range results {
		if r.Thing != "Mode" || r.Key != "k" || r.failed {
			continue
		}
		k, err := strconv.Atoi(r.Value)
		if err != nil {
			continue
		}
		if !slices.Contains(ks, k) {
			ks = append(ks, k)
		}
		ss := panels[r.procs]
		i := slices.IndexFunc(ss, func(s *series) bool { return s.impl == r.Impl })
		if i < 0 {
			ss = append(ss, &series{impl: r.Impl, pts: map[int]float64{}})
			i = len(ss) - 1
			panels[r.procs] = ss
		}
		ss[i].pts[k] = r.nsPerOp()
	}
	if len(panels) == 0 {
		return nil, nil
	}
	slices.Sort(ks)
	var procs []int
	for _, p := range cpus {
		if panels[p] != nil {
			procs = append(procs, p)
		}
	}

	// k is on an even categorical axis: 0 has no place on a log scale.
	ticks := make([]plot.Tick, len(ks))
	for i, k := range ks {
		ticks[i] = plot.Tick{Value: float64(i), Label: strconv.Itoa(k)}
	}
	var plots []*plot.Plot
	for _, p := range procs {
		pl := plot.New()
		readers := "readers"
		if p == 1 {
			readers = "reader"
		}
		pl.Title.Text = fmt.Sprintf("Mode: %d parallel %s (GOMAXPROCS %d)", p, readers, p)
		pl.X.Label.Text = "k live overrides (the read stream's the oldest)"
		pl.Y.Label.Text = "ns/op (log)"
		pl.X.Tick.Marker = plot.ConstantTicks(ticks)
		pl.X.Min, pl.X.Max = -0.25, float64(len(ks))-0.75
		pl.Y.Scale = plot.LogScale{}
		pl.Y.Tick.Marker = plot.LogTicks{Prec: -1}
		pl.Add(plotter.NewGrid())
		pl.Legend.Top = true
		pl.Legend.Left = true
		var args []any
		for _, s := range panels[p] {
			var xys plotter.XYs
			for i, k := range ks {
				if ns, ok := s.pts[k]; ok {
					xys = append(xys, plotter.XY{X: float64(i), Y: ns})
				}
			}
			args = append(args, s.impl, xys)
		}
		if err := plotutil.AddLinePoints(pl, args...); err != nil {
			return nil, err
		}
		plots = append(plots, pl)
	}

	cols := min(2, len(plots))
	rows := (len(plots) + cols - 1) / cols
	grid := make([][]*plot.Plot, rows)
	for i := range grid {
		grid[i] = make([]*plot.Plot, cols)
	}
	for i, pl := range plots {
		grid[i/cols][i%cols] = pl
	}
	w, h := vg.Length(cols)*12*vg.Centimeter, vg.Length(rows)*9*vg.Centimeter
	png, svg, err := saveChart(dir, "bench-mode", w, h, func(dc draw.Canvas) {
		tiles := draw.Tiles{Rows: rows, Cols: cols, PadX: vg.Centimeter, PadY: vg.Centimeter,
			PadTop: vg.Millimeter * 3, PadBottom: vg.Millimeter * 3, PadLeft: vg.Millimeter * 3, PadRight: vg.Millimeter * 3}
		cs := plot.Align(grid, tiles, dc)
		for i := range grid {
			for j, pl := range grid[i] {
				if pl != nil {
					pl.Draw(cs[i][j])
				}
			}
		}
	})
	if err != nil {
		return nil, err
	}
	return []string{png, svg}, nil
}
