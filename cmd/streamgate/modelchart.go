//go:build cgo

package main

import (
	"fmt"
	"os"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"

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
	bars.Color = warmColor
	bars.LineStyle.Width = 0
	pl.Add(bars)
	// The steady state's min–max as a whisker on its bar.
	whisker, err := plotter.NewLine(plotter.XYs{{X: 2, Y: rep.StepMsMin}, {X: 2, Y: rep.StepMsMax}})
	if err != nil {
		return "", err
	}
	whisker.Width = vg.Points(2)
	pl.Add(whisker)
	labels, err := barLabels(plotter.XYs{{X: 0, Y: rep.FirstStepMsCold}, {X: 1, Y: rep.FirstStepMsWarm}, {X: 2, Y: rep.StepMsMax}},
		[]string{fmt.Sprintf("%.1f ms", rep.FirstStepMsCold), fmt.Sprintf("%.1f ms", rep.FirstStepMsWarm),
			fmt.Sprintf("%.1f ms (%.1f–%.1f)", rep.StepMsMedian, rep.StepMsMin, rep.StepMsMax)})
	if err != nil {
		return "", err
	}
	pl.Add(labels)
	pl.NominalX("cold first step\n(child, empty caches)", "first step\nafter the warm-up", fmt.Sprintf("steady state\n(median of %d)", max(1, rep.Steps-1)))
	pl.Y.Min = 0
	pl.Y.Max = rep.FirstStepMsCold * 1.15
	if m := rep.StepMsMax * 1.15; m > pl.Y.Max {
		pl.Y.Max = m
	}

	png, _, err := saveChart(dir, "model-steps", 16*vg.Centimeter, 10*vg.Centimeter, pl.Draw)
	return png, err
}
