package main

import (
	"io"
	"os"
	"time"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"

	"github.com/streamgate/streamgate/tune"
)

// tuneProgress draws the tuner's progress as a bar on stderr when it is a
// terminal: the command draws, the library only reports. report goes to
// tune.WithProgress; finish clears the last bar. Both are for one
// goroutine (the tuner reports on its measuring goroutine).
func tuneProgress(stderr io.Writer) (report func(tune.Progress), finish func()) {
	f, ok := stderr.(*os.File)
	if !ok || !term.IsTerminal(int(f.Fd())) {
		return nil, func() {}
	}
	var bar *progressbar.ProgressBar
	var key string
	finish = func() {
		if bar != nil {
			_ = bar.Finish()
			bar = nil
		}
	}
	report = func(p tune.Progress) {
		if bar == nil || p.Key != key {
			finish()
			key = p.Key
			bar = progressbar.NewOptions(p.Total,
				progressbar.OptionSetWriter(f),
				progressbar.OptionSetDescription("tune "+p.Key),
				progressbar.OptionClearOnFinish(),
				progressbar.OptionThrottle(50*time.Millisecond),
			)
		}
		if int64(p.Total) != bar.GetMax64() {
			bar.ChangeMax(p.Total)
		}
		_ = bar.Set(p.Done)
	}
	return report, finish
}
