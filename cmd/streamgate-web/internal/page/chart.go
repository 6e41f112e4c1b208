package page

import (
	"fmt"
	"html"
	"math"
	"strings"
)

// The chart's colours: those of streamgate generate's chart.
const (
	warmColor = "#4c72b0"
	coldColor = "#c44e52"
)

// Chart returns an SVG document of r's times: on the left the time to
// first token, cold (when measured) and warm, as bars; on the right each
// decode step's time over the generated tokens, warm and cold, on a log
// scale (a cold step that compiles is orders of magnitude above a warm
// one). Times that are not positive are left out of the lines.
func Chart(r Result) string {
	const w, h = 900, 360
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" font-family="sans-serif" font-size="12">`, w, h, w, h)
	fmt.Fprintf(&b, `<rect width="%d" height="%d" fill="white"/>`, w, h)
	bars(&b, r, 60, 40, 200, 260)
	lines(&b, r, 360, 40, 510, 260)
	b.WriteString(`</svg>`)
	return b.String()
}

// bars draws the time to first token at x, y (the plot's top left), w×h.
func bars(b *strings.Builder, r Result, x, y, w, h float64) {
	type bar struct {
		name, color string
		v           float64
	}
	bs := []bar{{"warm", warmColor, r.TTFTMsWarm}}
	if r.Cold {
		bs = append([]bar{{"cold", coldColor, r.TTFTMsCold}}, bs...)
	}
	top := 0.0
	for _, v := range bs {
		top = max(top, v.v)
	}
	if top <= 0 {
		top = 1
	}
	top *= 1.15
	title(b, x+w/2, y-18, "time to first token (ms)")
	axes(b, x, y, w, h)
	bw := w / float64(2*len(bs)+1)
	for i, v := range bs {
		bh := h * max(v.v, 0) / top
		bx := x + bw*float64(2*i+1)
		fmt.Fprintf(b, `<rect class="bar" data-name="%s" x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="%s"/>`, v.name, bx, y+h-bh, bw, bh, v.color)
		text(b, bx+bw/2, y+h-bh-4, "middle", fmt.Sprintf("%.1f", v.v))
		text(b, bx+bw/2, y+h+16, "middle", v.name)
	}
}

// lines draws each decode step's time at x, y, w×h, log scale.
func lines(b *strings.Builder, r Result, x, y, w, h float64) {
	title(b, x+w/2, y-18, fmt.Sprintf("per token (%d launches a decode step), ms, log scale", r.LaunchesPerToken))
	axes(b, x, y, w, h)
	lo, hi := math.Inf(1), math.Inf(-1)
	n := 0
	for _, s := range [][]float64{r.TokenMs, r.ColdTokenMs} {
		n = max(n, len(s))
		for _, v := range s {
			if v > 0 {
				lo, hi = min(lo, v), max(hi, v)
			}
		}
	}
	if n == 0 || math.IsInf(lo, 1) {
		text(b, x+w/2, y+h/2, "middle", "no decode steps")
		return
	}
	ticks := logTicks(lo, hi)
	l0, l1 := math.Log10(ticks[0]), math.Log10(ticks[len(ticks)-1])
	py := func(v float64) float64 { return y + h - h*(math.Log10(v)-l0)/(l1-l0) }
	px := func(i int) float64 {
		if n == 1 {
			return x + w/2
		}
		return x + w*float64(i)/float64(n-1)
	}
	for _, v := range ticks {
		fmt.Fprintf(b, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#ddd"/>`, x, py(v), x+w, py(v))
		text(b, x-6, py(v)+4, "end", fmt.Sprintf("%g", v))
	}
	text(b, x+w/2, y+h+30, "middle", "generated token (decode step)")
	for i := 0; i < n; i += max(1, n/8) {
		text(b, px(i), y+h+16, "middle", fmt.Sprint(i+2)) // the first token is the prefill's
	}
	series := func(name, color string, ms []float64, med float64, row int) {
		var pts []string
		for i, v := range ms {
			if v > 0 {
				pts = append(pts, fmt.Sprintf("%.1f,%.1f", px(i), py(v)))
			}
		}
		if len(pts) == 0 {
			return
		}
		fmt.Fprintf(b, `<polyline class="series" data-name="%s" points="%s" fill="none" stroke="%s" stroke-width="1.5"/>`, name, strings.Join(pts, " "), color)
		ly := y + 14 + 16*float64(row)
		fmt.Fprintf(b, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="%s" stroke-width="2"/>`, x+w-250, ly-4, x+w-230, ly-4, color)
		text(b, x+w-224, ly, "start", fmt.Sprintf("%s: median %.3f ms", name, med))
	}
	series("warm", warmColor, r.TokenMs, r.TokenMsMedian, 0)
	if r.Cold {
		series("cold", coldColor, r.ColdTokenMs, r.ColdTokenMsMed, 1)
	}
}

// logTicks returns the gridlines of a log axis over lo..hi (0 < lo <=
// hi): the values 1, 2 and 5 times a power of ten from the last at or
// below lo to the first at or above hi, at least two.
func logTicks(lo, hi float64) []float64 {
	var ticks []float64
	for d := math.Floor(math.Log10(lo)); ; d++ {
		for _, m := range []float64{1, 2, 5} {
			v := m * math.Pow(10, d)
			next := v * 2
			if m == 2 {
				next = v * 2.5
			}
			if next <= lo*(1+1e-9) {
				continue // the next tick is still at or below lo
			}
			ticks = append(ticks, v)
			if v >= hi*(1-1e-9) && len(ticks) >= 2 {
				return ticks
			}
		}
	}
}

func axes(b *strings.Builder, x, y, w, h float64) {
	fmt.Fprintf(b, `<path d="M%.1f %.1fV%.1fH%.1f" fill="none" stroke="#333"/>`, x, y, y+h, x+w)
}

func title(b *strings.Builder, x, y float64, s string) {
	fmt.Fprintf(b, `<text x="%.1f" y="%.1f" text-anchor="middle" font-weight="bold">%s</text>`, x, y, html.EscapeString(s))
}

func text(b *strings.Builder, x, y float64, anchor, s string) {
	fmt.Fprintf(b, `<text x="%.1f" y="%.1f" text-anchor="%s">%s</text>`, x, y, anchor, html.EscapeString(s))
}
