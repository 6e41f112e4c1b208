//go:build !js

package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"github.com/streamgate/streamgate/cmd/streamgate-web/internal/page"
	"github.com/streamgate/streamgate/internal/chromium"
)

// visit is what a headless Chromium saw of the page.
type visit struct {
	Result  page.Result
	Status  string        // the page's #status line at the end
	Message string        // the text of its #message box ("" when it has none)
	Figures string        // the text of its table of figures
	Chart   string        // the markup of its chart (an <svg>)
	Console []string      // what the page logged (the Go program's output included), in order
	PNG     []byte        // a screenshot of the whole page, when asked for
	Earlier []page.Result // the results of the loads before the last, in order
}

// openPage opens url in a headless Chromium (internal/chromium's, with
// its WebGPU flags unless noWebGPU, which leaves --enable-unsafe-webgpu
// out so that requestAdapter returns null), waits until the page sets
// document.body.dataset.done or ctx ends, and reads back the page's
// result, with a screenshot when png; it loads the page loads times (at
// least once) in the same browser, the results of all but the last in
// Earlier. The browser is killed before it
// returns. An error says how far the page got (its status line and the
// last of its console).
func openPage(ctx context.Context, url string, noWebGPU, png bool, loads int) (*visit, error) {
	var extra []chromedp.ExecAllocatorOption
	if noWebGPU {
		extra = append(extra, chromedp.Flag("enable-unsafe-webgpu", false))
	}
	extra = append(extra, chromedp.WindowSize(1100, 900))
	// The browser lives on a context without ctx's deadline (a deadline on
	// the first run stops the whole browser, and a page that ran out of
	// time still has its status line to read); cancel kills it.
	bctx, cancel, err := chromium.NewContext(context.WithoutCancel(ctx), extra...)
	if err != nil {
		return nil, err
	}
	defer cancel()
	v := &visit{}
	var mu sync.Mutex // guards v.Console: events arrive on chromedp's goroutine
	if err := chromedp.Do(bctx, chromedp.Navigate("about:blank")); err != nil {
		return nil, fmt.Errorf("starting Chromium: %w", err)
	}
	if err := chromedp.Listen(bctx, func(ev any) {
		var line string
		switch ev := ev.(type) {
		case *runtime.EventConsoleAPICalled:
			var parts []string
			for _, a := range ev.Args {
				s := string(a.Value)
				if a.Description != "" && len(a.Value) == 0 {
					s = a.Description
				}
				var str string
				if json.Unmarshal(a.Value, &str) == nil {
					s = str
				}
				parts = append(parts, s)
			}
			line = string(ev.Type) + ": " + strings.Join(parts, " ")
		case *runtime.EventExceptionThrown:
			d := ev.ExceptionDetails
			line = "exception: " + d.Text
			if d.Exception != nil && d.Exception.Description != "" {
				line += " " + d.Exception.Description
			}
		default:
			return
		}
		mu.Lock()
		v.Console = append(v.Console, line)
		mu.Unlock()
	}); err != nil {
		return nil, err
	}
	for load := 0; ; load++ {
		if load > 0 {
			v.Earlier = append(v.Earlier, v.Result)
			v.Result = page.Result{}
		}
		if err := chromedp.Do(bctx, chromedp.Navigate(url)); err != nil {
			return v, fmt.Errorf("opening %s: %w", url, err)
		}
		if err := v.wait(ctx, bctx, &mu); err != nil {
			return v, err
		}
		if load == loads-1 || loads < 1 {
			break
		}
	}
	rctx, rcancel := context.WithTimeout(bctx, 30*time.Second)
	defer rcancel()
	if png {
		var err error
		if v.PNG, err = chromedp.Run(rctx, chromedp.FullScreenshot(100)); err != nil {
			return v, fmt.Errorf("the screenshot: %w", err)
		}
	}
	mu.Lock()
	v.Console = append([]string(nil), v.Console...)
	mu.Unlock()
	return v, nil
}

// screenshot opens url as openPage does (with WebGPU), waits for the demo
// and saves a PNG of the page at path.
func screenshot(ctx context.Context, url, path string) (page.Result, error) {
	v, err := openPage(ctx, url, false, true, 1)
	if err != nil {
		return page.Result{}, err
	}
	if len(v.PNG) == 0 {
		return v.Result, errors.New("the browser returned an empty screenshot")
	}
	if err := os.WriteFile(path, v.PNG, 0o644); err != nil {
		return v.Result, err
	}
	return v.Result, nil
}

func lastLines(lines []string, n int) string {
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

// wait waits on the browser bctx until the page sets
// document.body.dataset.done or ctx ends, then reads what it shows into
// v; mu guards v.Console.
func (v *visit) wait(ctx, bctx context.Context, mu *sync.Mutex) error {
	// The wait ends with ctx, on a context of the tab.
	pctx, pcancel := context.WithCancel(bctx)
	defer pcancel()
	defer context.AfterFunc(ctx, pcancel)()
	var waitErr error
	for {
		_, waitErr = chromedp.Run(pctx, chromedp.Poll[string]("document.body.dataset.done", chromedp.WithPollingTimeout(0), chromedp.WithPollingInterval(100*time.Millisecond)))
		// A cross-origin-isolated page (the server's COOP header) may swap
		// its renderer after the navigation returns: the poll then lost
		// its execution context, and polls again in the new one.
		if waitErr == nil || pctx.Err() != nil || !strings.Contains(waitErr.Error(), "Cannot find context with specified id") {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	// The rest reads what is there, finished or not, within a bound of its own.
	rctx, rcancel := context.WithTimeout(bctx, 30*time.Second)
	defer rcancel()
	status, _ := chromedp.Run(rctx, chromedp.Evaluate[string](`(document.getElementById("status")||{}).textContent||""`))
	v.Status = status
	if waitErr != nil {
		mu.Lock()
		defer mu.Unlock()
		if ctx.Err() != nil {
			waitErr = ctx.Err()
		}
		return fmt.Errorf("the page did not finish (%v); its status: %q; its console's last lines:\n%s", waitErr, status, lastLines(v.Console, 20))
	}
	shown, err := chromedp.Run(rctx, chromedp.Evaluate[struct{ Result, Message, Figures, Chart string }](`({
		Result: document.getElementById("`+page.ResultID+`").textContent,
		Message: document.getElementById("message").innerText,
		Figures: document.getElementById("figures").innerText,
		Chart: document.getElementById("chart").innerHTML,
	})`))
	if err != nil {
		return fmt.Errorf("reading the result: %w", err)
	}
	js := shown.Result
	v.Message, v.Figures, v.Chart = shown.Message, shown.Figures, shown.Chart
	if err := json.Unmarshal([]byte(js), &v.Result); err != nil {
		return fmt.Errorf("the page's result %q: %w", js, err)
	}
	return nil
}
