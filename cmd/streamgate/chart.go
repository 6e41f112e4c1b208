package main

import (
	"image/color"
	"io"
	"os"
	"path/filepath"

	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgsvg"
)

// saveChart draws a w×h chart with drawOn twice, into dir/name.png and
// dir/name.svg: the figures of bench, warmup and generate. It returns the
// two files' paths.
func saveChart(dir, name string, w, h vg.Length, drawOn func(draw.Canvas)) (png, svg string, err error) {
	png = filepath.Join(dir, name+".png")
	img := vgimg.NewWith(vgimg.UseWH(w, h), vgimg.UseDPI(110), vgimg.UseBackgroundColor(whiteBG))
	drawOn(draw.New(img))
	if err := writeTo(png, vgimg.PngCanvas{Canvas: img}); err != nil {
		return "", "", err
	}
	svg = filepath.Join(dir, name+".svg")
	vs := vgsvg.New(w, h)
	drawOn(draw.New(vs))
	if err := writeTo(svg, vs); err != nil {
		return "", "", err
	}
	return png, svg, nil
}

// barLabels writes labels over the bars at xys, left-aligned at their
// tops, as the warmup and generate charts label their bars.
func barLabels(xys plotter.XYs, labels []string) (*plotter.Labels, error) {
	l, err := plotter.NewLabels(plotter.XYLabels{XYs: xys, Labels: labels})
	if err != nil {
		return nil, err
	}
	for i := range l.TextStyle {
		l.TextStyle[i].XAlign = -0.5
		l.TextStyle[i].YAlign = 0
	}
	return l, nil
}

var whiteBG = color.White

type writerTo interface {
	WriteTo(w io.Writer) (int64, error)
}

func writeTo(name string, c writerTo) error {
	f, err := os.Create(name)
	if err != nil {
		return err
	}
	if _, err := c.WriteTo(f); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
