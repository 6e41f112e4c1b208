//go:build js && wasm

package main

import (
	"fmt"
	"syscall/js"
	"time"

	"github.com/streamgate/streamgate/cmd/streamgate-web/internal/page"
	"github.com/streamgate/streamgate/tune"
)

// ui is the page's document, written from Go: the status line, the
// progress list, and at the end the message, the table, the chart and
// the result. It is for the one goroutine that runs the demo (the tuner
// reports its progress on the goroutine that measures, which is the
// demo's).
type ui struct {
	doc      js.Value
	status   js.Value // #status: what runs now
	progress js.Value // #progress: an <li> a step or note
	lastTune time.Time
}

func newUI() *ui {
	doc := js.Global().Get("document")
	u := &ui{doc: doc, status: doc.Call("getElementById", "status"), progress: doc.Call("getElementById", "progress")}
	doc.Get("body").Get("dataset").Set("running", "1")
	return u
}

// step starts a step: the status line says it, the progress list gets it.
func (u *ui) step(s string) {
	u.status.Set("textContent", s)
	u.item("step", s)
	yield()
}

// note adds a line under the current step.
func (u *ui) note(s string) {
	u.item("note", s)
	yield()
}

func (u *ui) item(class, s string) {
	li := u.doc.Call("createElement", "li")
	li.Set("className", class)
	li.Set("textContent", s)
	u.progress.Call("appendChild", li)
}

// tuneProgress is the tuner's progress (tune.WithProgress), on the status
// line, at most every 100 ms, yielding so that the browser paints it.
func (u *ui) tuneProgress(p tune.Progress) {
	if time.Since(u.lastTune) < 100*time.Millisecond && p.Done != p.Total {
		return
	}
	u.lastTune = time.Now()
	u.status.Set("textContent", fmt.Sprintf("tuning %s: %d of %d samples", p.Key, p.Done, p.Total))
	yield()
}

// finish shows r: the message for a page that could not run, else the
// table and the chart; then the result's JSON in <script id="result">
// and, last, document.body.dataset.done, which a test waits for.
func (u *ui) finish(r page.Result) {
	body := u.doc.Get("body")
	if r.State != page.StateDone {
		msg := u.doc.Call("getElementById", "message")
		msg.Set("className", "message "+r.State)
		msg.Set("textContent", "")
		for _, s := range []string{r.Error, r.Hint} {
			if s != "" {
				p := u.doc.Call("createElement", "p")
				p.Set("textContent", s)
				msg.Call("appendChild", p)
			}
		}
		u.status.Set("textContent", "stopped: see the message below")
	}
	if r.Adapter != "" {
		table := u.doc.Call("getElementById", "figures")
		for _, row := range page.Rows(r) {
			tr := u.doc.Call("createElement", "tr")
			for i, s := range []string{row.Label, row.Value} {
				td := u.doc.Call("createElement", [...]string{"th", "td"}[i])
				td.Set("textContent", s)
				tr.Call("appendChild", td)
			}
			table.Call("appendChild", tr)
		}
	}
	if r.State == page.StateDone {
		u.doc.Call("getElementById", "chart").Set("innerHTML", page.Chart(r))
		u.status.Set("textContent", "done: CPU check passed")
	}
	u.doc.Call("getElementById", page.ResultID).Set("textContent", marshal(r))
	body.Get("dataset").Delete("running")
	body.Get("dataset").Set("done", r.State)
}

// yield lets the browser run its event loop (and paint) once: under
// js/wasm a sleep returns to it through setTimeout.
func yield() { time.Sleep(time.Millisecond) }
