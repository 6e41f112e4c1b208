//go:build cgo

package main

import (
	"fmt"
	"image/color"
	"math"
	"os"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/streamgate/streamgate/internal/workload/decoder"
)

var (
	warmColor    = color.RGBA{R: 0x4c, G: 0x72, B: 0xb0, A: 0xff}
	coldColor    = color.RGBA{R: 0xc4, G: 0x4e, B: 0x52, A: 0xff}
	restartColor = color.RGBA{R: 0x55, G: 0xa8, B: 0x68, A: 0xff}
)

// writeGenerateChart draws the generation's figures into dir/generate.png
// and .svg: on the left the time to first token three ways, as bars, each
// saying from when: cold (a first run ever, when measured) and restart (a
// fresh process on the caches the run left, when measured) from process
// start, warm (this process, after its warm-up) from the step; on the right each decode step's latency over the
// generated tokens, warm and cold. It returns the PNG's path.
func writeGenerateChart(dir string, mc decoder.Config, rep generateReport) (string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	ttft, err := ttftPlot(rep)
	if err != nil {
		return "", err
	}
	tokens, err := tokenPlot(mc, rep)
	if err != nil {
		return "", err
	}
	png, _, err := saveChart(dir, "generate", 24*vg.Centimeter, 10*vg.Centimeter, func(c draw.Canvas) {
		tiles := draw.Tiles{Rows: 1, Cols: 2, PadX: vg.Centimeter, PadTop: vg.Millimeter * 3, PadBottom: vg.Millimeter * 3,
			PadLeft: vg.Millimeter * 3, PadRight: vg.Millimeter * 5}
		ttft.Draw(tiles.At(c, 0, 0))
		tokens.Draw(tiles.At(c, 1, 0))
	})
	return png, err
}

func ttftPlot(rep generateReport) (*plot.Plot, error) {
	pl := plot.New()
	pl.Title.Text = "time to first token, three ways"
	pl.Y.Label.Text = "ms to the first token"
	pl.Add(plotter.NewGrid())
	var names []string
	var vals plotter.Values
	var colors []color.Color
	if rep.Cold {
		names, vals, colors = append(names, "cold: first run ever\nfrom process start"), append(vals, rep.ColdMsToFirstToken), append(colors, coldColor)
	}
	if rep.Restart {
		names, vals, colors = append(names, "restart: caches warm\nfrom process start"), append(vals, rep.RestartMsToFirstToken), append(colors, restartColor)
	}
	names, vals, colors = append(names, "warm: in process\nfrom the step"), append(vals, rep.TTFTMsWarm), append(colors, warmColor)
	for i, v := range vals {
		// One bar chart per bar, so that each has its colour.
		one := make(plotter.Values, len(vals))
		one[i] = v
		bars, err := plotter.NewBarChart(one, vg.Centimeter*2)
		if err != nil {
			return nil, err
		}
		bars.Color, bars.LineStyle.Width = colors[i], 0
		pl.Add(bars)
	}
	var xys plotter.XYs
	var labels []string
	top := 0.0
	for i, v := range vals {
		xys = append(xys, plotter.XY{X: float64(i), Y: v})
		labels = append(labels, fmt.Sprintf("%.1f ms", v))
		top = max(top, v)
	}
	l, err := barLabels(xys, labels)
	if err != nil {
		return nil, err
	}
	pl.Add(l)
	pl.NominalX(names...)
	pl.Y.Min, pl.Y.Max = 0, top*1.15
	return pl, nil
}

func tokenPlot(mc decoder.Config, rep generateReport) (*plot.Plot, error) {
	pl := plot.New()
	pl.Title.Text = fmt.Sprintf("per token (%d launches; %d layers, width %d)", mc.DecodeLaunches(), mc.Layers, mc.Width)
	pl.X.Label.Text = "generated token (decode step)"
	pl.Y.Label.Text = "ms, state written to token read back"
	pl.Add(plotter.NewGrid())
	series := func(ms []float64) plotter.XYs {
		xys := make(plotter.XYs, len(ms))
		for i, v := range ms {
			xys[i] = plotter.XY{X: float64(i + 2), Y: v} // the first token is the prefill's
		}
		return xys
	}
	top, bottom := 0.0, math.Inf(1)
	add := func(name string, ms []float64, c color.Color) error {
		if len(ms) == 0 {
			return nil
		}
		line, err := plotter.NewLine(series(ms))
		if err != nil {
			return err
		}
		line.Color, line.Width = c, vg.Points(1.5)
		pl.Add(line)
		pl.Legend.Add(name, line)
		for _, v := range ms {
			top, bottom = max(top, v), min(bottom, v)
		}
		return nil
	}
	if err := add(fmt.Sprintf("warm: graph replayed, median %.2f ms, p99 %.2f ms", rep.TokenMsMedian, rep.TokenMsP99), rep.TokenMs, warmColor); err != nil {
		return nil, err
	}
	if err := add("cold: launched, compiling at first use", rep.ColdTokenMs, coldColor); err != nil {
		return nil, err
	}
	// A log scale: a cold step's compile stall and the warm steps both show.
	pl.Legend.Top = true
	pl.Y.Scale, pl.Y.Tick.Marker = plot.LogScale{}, plot.LogTicks{Prec: -1}
	pl.Y.Min, pl.Y.Max = bottom/1.5, top*6
	return pl, nil
}
