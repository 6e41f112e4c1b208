//go:build cgo

package main

import (
	"fmt"
	"image/color"
	"os"
	"path/filepath"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgsvg"

	"github.com/streamgate/streamgate/internal/workload/decoder"
)

// writeModelChart draws the model workload's step times — the cold first
// step, the first step after the warm-up and the steady state's median
// with its min–max — as bars into dir/model-steps.png and .svg, beside
// the bench chart. It returns the PNG's path.
func writeModelChart(dir string, mc decoder.Config, rep warmupReport) (string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	pl := plot.New()
	pl.Title.Text = fmt.Sprintf("decoder step: %d layers, width %d, %d tokens (%d launches)", mc.Layers, mc.Width, mc.Seq, mc.Launches())
	pl.Y.Label.Text = "ms, launch to result"
	pl.Add(plotter.NewGrid())
	vals := plotter.Values{rep.FirstStepMsCold, rep.FirstStepMsWarm, rep.StepMsMedian}
	bars, err := plotter.NewBarChart(vals, vg.Centimeter*2.5)
	if err != nil {
		return "", err
	}
	bars.Color = color.RGBA{R: 0x4c, G: 0x72, B: 0xb0, A: 0xff}
	bars.LineStyle.Width = 0
	pl.Add(bars)
	// The steady state's min–max as a whisker on its bar.
	whisker, err := plotter.NewLine(plotter.XYs{{X: 2, Y: rep.StepMsMin}, {X: 2, Y: rep.StepMsMax}})
	if err != nil {
		return "", err
	}
	whisker.Width = vg.Points(2)
	pl.Add(whisker)
	labels, err := plotter.NewLabels(plotter.XYLabels{
		XYs: plotter.XYs{{X: 0, Y: rep.FirstStepMsCold}, {X: 1, Y: rep.FirstStepMsWarm}, {X: 2, Y: rep.StepMsMax}},
		Labels: []string{fmt.Sprintf("%.1f ms", rep.FirstStepMsCold), fmt.Sprintf("%.1f ms", rep.FirstStepMsWarm),
			fmt.Sprintf("%.1f ms (%.1f–%.1f)", rep.StepMsMedian, rep.StepMsMin, rep.StepMsMax)},
	})
	if err != nil {
		return "", err
	}
	for i := range labels.TextStyle {
		labels.TextStyle[i].XAlign = -0.5
		labels.TextStyle[i].YAlign = 0
	}
	pl.Add(labels)
	pl.NominalX("cold first step\n(fresh device, no warm-up)", "first step\nafter the warm-up", fmt.Sprintf("steady state\n(median of %d)", max(1, rep.Steps-1)))
	pl.Y.Min = 0
	pl.Y.Max = rep.FirstStepMsCold * 1.15
	if m := rep.StepMsMax * 1.15; m > pl.Y.Max {
		pl.Y.Max = m
	}

	w, h := 16*vg.Centimeter, 10*vg.Centimeter
	png := filepath.Join(dir, "model-steps.png")
	img := vgimg.NewWith(vgimg.UseWH(w, h), vgimg.UseDPI(110), vgimg.UseBackgroundColor(whiteBG))
	pl.Draw(draw.New(img))
	if err := writeTo(png, vgimg.PngCanvas{Canvas: img}); err != nil {
		return "", err
	}
	svg := vgsvg.New(w, h)
	pl.Draw(draw.New(svg))
	if err := writeTo(filepath.Join(dir, "model-steps.svg"), svg); err != nil {
		return "", err
	}
	return png, nil
}
