package main

// Progress shown while commands work: bars and lines on standard error.

import (
	"fmt"
	"io"
	"os"
	"sync"
	"time"

	"github.com/schollz/progressbar/v3"
	"github.com/urfave/cli/v2"
	"golang.org/x/term"

	"github.com/ccsweep/ccsweep/engine"
	"github.com/ccsweep/ccsweep/grids"
)

// progress shows a bar on a terminal and a plain line every ten seconds
// otherwise.
type progress struct {
	mu     sync.Mutex
	w      io.Writer
	bar    *progressbar.ProgressBar
	todo   int
	done   int
	failed int
	start  time.Time
	last   time.Time
}

func newProgress(w io.Writer) *progress { return &progress{w: w} }

func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

func (p *progress) Start(todo int) {
	p.todo, p.start, p.last = todo, time.Now(), time.Now()
	if isTerminal(p.w) {
		p.bar = progressbar.NewOptions(todo, progressbar.OptionSetWriter(p.w), progressbar.OptionSetDescription("points"),
			progressbar.OptionShowCount(), progressbar.OptionShowIts(), progressbar.OptionSetItsString("points"),
			progressbar.OptionSetPredictTime(true), progressbar.OptionFullWidth(), progressbar.OptionClearOnFinish())
	}
}

func (p *progress) Done(_ grids.Point, failed bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.done++
	if failed {
		p.failed++
	}
	if p.bar != nil {
		p.bar.Add(1)
		return
	}
	if now := time.Now(); now.Sub(p.last) >= 10*time.Second || p.done == p.todo {
		p.last = now
		el := now.Sub(p.start)
		rate := float64(p.done) / el.Seconds()
		eta := time.Duration(float64(p.todo-p.done) / rate * float64(time.Second))
		fmt.Fprintf(p.w, "%d/%d points (%.0f%%), %d failed, %.2f points/s, elapsed %s, ETA %s\n", p.done, p.todo,
			100*float64(p.done)/float64(max(p.todo, 1)), p.failed, rate, el.Round(time.Second), eta.Round(time.Second))
	}
}

func (p *progress) Finish() {
	if p.bar != nil {
		p.bar.Finish()
	}
}

// simProgress shows, on a terminal, the simulated time reached against the
// run's end, the rate (simulated time per wall second) and an ETA, once a
// run has taken more than two seconds; it redraws one line twice a second
// and clears it at the end.
type simProgress struct {
	w           io.Writer
	start, last time.Time
	shown       bool
}

func newSimProgress(w io.Writer) *simProgress { return &simProgress{w: w, start: time.Now()} }

// Update is the model's progress callback.
func (p *simProgress) Update(now, end engine.Time) {
	t := time.Now()
	el := t.Sub(p.start)
	if el < 2*time.Second || t.Sub(p.last) < 500*time.Millisecond || now <= 0 {
		return
	}
	p.last, p.shown = t, true
	rate := now.Seconds() / el.Seconds() // simulated seconds per wall second
	eta := time.Duration(float64(end-now) / float64(now) * float64(el))
	fmt.Fprintf(p.w, "\r\x1b[Ksimulated %v of %v (%.0f%%), %s per second, ETA %v", now, end,
		100*float64(now)/float64(end), seconds(rate), eta.Round(time.Second))
}

// seconds prints s seconds with three digits in s, ms or µs.
func seconds(s float64) string {
	switch {
	case s >= 1:
		return fmt.Sprintf("%.3g s", s)
	case s >= 1e-3:
		return fmt.Sprintf("%.3g ms", s*1e3)
	default:
		return fmt.Sprintf("%.3g µs", s*1e6)
	}
}

// Finish clears the line.
func (p *simProgress) Finish() {
	if p.shown {
		fmt.Fprint(p.w, "\r\x1b[K")
	}
}

// validateProgress returns the progress callback of validate: on a
// terminal a line that counts up; nil elsewhere and with --quiet.
func validateProgress(c *cli.Context) func(done, total int) {
	if c.Bool("quiet") || !isTerminal(c.App.ErrWriter) {
		return nil
	}
	return func(done, total int) {
		fmt.Fprintf(c.App.ErrWriter, "\r\x1b[Kvalidate: %d of %d simulations", done, total)
		if done == total {
			fmt.Fprint(c.App.ErrWriter, "\r\x1b[K")
		}
	}
}

// checkProgress returns the progress callback of --cross and --sensitivity:
// on a terminal a line that counts up, elsewhere a line per finished check;
// nil with --quiet.
func checkProgress(c *cli.Context, what string) func(check, checks, done, total int) {
	if c.Bool("quiet") {
		return nil
	}
	w := c.App.ErrWriter
	if isTerminal(w) {
		return func(check, checks, done, total int) {
			fmt.Fprintf(w, "\r\x1b[Kvalidate %s: check %d of %d, %d of %d simulations", what, check, checks, done, total)
			if check == checks && done == total {
				fmt.Fprint(w, "\r\x1b[K")
			}
		}
	}
	return func(check, checks, done, total int) {
		if done == total {
			fmt.Fprintf(w, "validate %s: check %d of %d done\n", what, check, checks)
		}
	}
}
