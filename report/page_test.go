package report_test

import (
	"math"
	"regexp"
	"strconv"
	"testing"

	"github.com/ccsweep/ccsweep/report"
)

// The overview says what share of the planned points is done, and the
// progress bar is as wide.
func TestOverviewPercentDone(t *testing.T) {
	html := writeHTML(t, fakeDB(t, "golden", "lines"), report.Options{})
	counts := regexp.MustCompile(`<tr><th>planned</th><td>(\d+) points</td></tr>\s*<tr><th>done</th><td>(\d+) <span class="muted">\((\d+)%\)</span>`)
	bar := regexp.MustCompile(`<span class="done" style="width:(\d+)%"></span>`)
	cs, bs := counts.FindAllStringSubmatch(html, -1), bar.FindAllStringSubmatch(html, -1)
	if len(cs) != 2 || len(bs) != 2 {
		t.Fatalf("%d overviews, %d progress bars; want 2 of each", len(cs), len(bs))
	}
	partial := false
	for i, c := range cs {
		planned, _ := strconv.Atoi(c[1])
		done, _ := strconv.Atoi(c[2])
		want := strconv.Itoa(int(math.Round(100 * float64(done) / float64(planned))))
		if c[3] != want || bs[i][1] != want {
			t.Errorf("grid %d: %d of %d done shown as %s%%, bar %s%%; want %s%%", i, done, planned, c[3], bs[i][1], want)
		}
		partial = partial || (done > 0 && done < planned)
	}
	if !partial {
		t.Fatal("no grid partly done: the test needs one")
	}
}

// A surface's selector of another axis offers the values its points
// hold, and no other: golden's CC-off sub-grid sweeps none of the surfaces'
// axes, so no surface has a point with cc = off, and each offers cc = on
// alone (shown as fixed).
func TestSelectorOffersOnlyValuesWithPoints(t *testing.T) {
	html := writeHTML(t, fakeDB(t, "golden"), report.Options{})
	ms := regexp.MustCompile(`<select data-dim="cc"[^>]*>(.*?)</select>`).FindAllStringSubmatch(html, -1)
	if len(ms) != 3 {
		t.Fatalf("%d cc selectors, want one for each of the 3 surfaces", len(ms))
	}
	for _, m := range ms {
		if m[1] != `<option value="on" selected></option>` {
			t.Errorf("cc selector offers %s, want on alone", m[1])
		}
	}
}
