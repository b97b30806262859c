package report_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"image"
	"image/draw"
	"image/png"
	"net/http/httptest"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/ccsweep/ccsweep/report"
	"github.com/ccsweep/ccsweep/store"
)

// The browser tests need Chromium (.ci/report-deps.sh installs it); the
// chart scripts are the ones ccsweep ships. Without Chromium they skip,
// except in CI (CI=true), where they fail. The browser has no network: every
// host name but the tests' own servers' 127.0.0.1 fails to resolve.

// shotDir is where the tests also copy their screenshots, for people to
// look at.
const shotDir = "/tmp/ccsweep-shots"

// need skips the test, or fails it in CI, when a dependency is missing.
func need(t testing.TB, what string, err error) {
	t.Helper()
	if err == nil {
		return
	}
	if os.Getenv("CI") == "true" {
		t.Fatalf("%s: %v (run .ci/report-deps.sh)", what, err)
	}
	t.Skipf("%s: %v (run .ci/report-deps.sh)", what, err)
}

// chromiumPath returns $CHROMIUM or /usr/bin/chromium.
func chromiumPath(t testing.TB) string {
	t.Helper()
	path := os.Getenv("CHROMIUM")
	if path == "" {
		path = "/usr/bin/chromium"
	}
	_, err := os.Stat(path)
	need(t, "chromium", err)
	return path
}

// browser is a headless Chromium tab that records what the page writes to
// the console.
type browser struct {
	ctx context.Context
	mu  sync.Mutex
	log []chromedp.ConsoleMessage
}

// offline makes every host name fail to resolve in Chromium: a page that
// loads anything from the network (a CDN) does not get it.
const offline = "MAP * ~NOTFOUND, EXCLUDE 127.0.0.1"

// newBrowser starts Chromium drawing WebGL with SwiftShader (no GPU needed)
// in a fresh profile, with a window of the given size.
func newBrowser(t testing.TB, width, height int) *browser {
	t.Helper()
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(chromiumPath(t)),
		chromedp.Headless, chromedp.NoSandbox, chromedp.NoFirstRun, chromedp.NoDefaultBrowserCheck,
		chromedp.WindowSize(width, height),
		chromedp.Flag("use-angle", "swiftshader"),
		chromedp.Flag("enable-unsafe-swiftshader", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.Flag("force-color-profile", "srgb"),
		chromedp.Flag("host-resolver-rules", offline),
	}
	// Start the browser before the test's timeouts apply (see chromedp.Run).
	// Chromium now and then exits before it listens ("chrome failed to
	// start", seen in a run of this package beside a mutation run on two
	// cores): a second start, with a profile of its own, is tried before
	// the test fails.
	var ctx context.Context
	for attempt := 1; ; attempt++ {
		actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), append(opts, chromedp.UserDataDir(t.TempDir()))...)
		c, cancel := chromedp.NewContext(actx)
		t.Cleanup(func() { cancel(); cancelAlloc() })
		err := chromedp.Do(c)
		if err == nil {
			ctx = c
			break
		}
		if attempt == 2 {
			t.Fatalf("start chromium (twice): %v", err)
		}
		t.Logf("start chromium: %v; trying again", err)
	}
	b := &browser{ctx: ctx}
	t.Cleanup(func() {
		if t.Failed() {
			for _, p := range b.problems() {
				t.Log("console: " + p)
			}
		}
	})
	msgs := chromedp.Console(ctx)
	go func() {
		for m, err := range msgs {
			if err != nil {
				return
			}
			b.mu.Lock()
			b.log = append(b.log, m)
			b.mu.Unlock()
		}
	}()
	return b
}

// problems returns the console errors and exceptions so far, and warnings
// about WebGL.
func (b *browser) problems() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	var out []string
	for _, m := range b.log {
		bad := m.Type == chromedp.ConsoleError || m.IsException() ||
			(m.Type == chromedp.ConsoleWarning && strings.Contains(m.Text, "WebGL"))
		if bad {
			out = append(out, fmt.Sprintf("%s: %s (%s:%d)", m.Type, m.Text, m.URL, m.Line))
		}
	}
	return out
}

// chartCheck is what checkCharts finds about one chart element.
type chartCheck struct {
	ID       string `json:"id"`
	Drawn    bool   `json:"drawn"`
	Instance bool   `json:"instance"`
	Canvases int    `json:"canvases"`
	WebGL    int    `json:"webgl"`
	WantGL   bool   `json:"wantGL"`
	Series   int    `json:"series"`
}

// checkChartsJS scrolls every visible chart into view, waits until ECharts
// reports it finished, and describes it.
const checkChartsJS = `(async () => {
  const out = [];
  for (const el of document.querySelectorAll('.chart')) {
    if (el.offsetParent === null) continue;
    el.scrollIntoView({block: 'center'});
    const t0 = performance.now();
    while (el.dataset.state !== 'drawn' && performance.now() - t0 < 20000) await new Promise(r => setTimeout(r, 50));
    const inst = echarts.getInstanceByDom(el);
    const canvases = [...el.querySelectorAll('canvas')];
    const webgl = canvases.filter(c => c.getContext('webgl') instanceof WebGLRenderingContext).length;
    const spec = window.ccsweep.specs[el.id];
    out.push({id: el.id, drawn: el.dataset.state === 'drawn', instance: !!inst, canvases: canvases.length,
      webgl, wantGL: !!(spec && spec.gl), series: inst ? inst.getOption().series.length : 0});
  }
  window.scrollTo(0, 0);
  return out;
})()`

// checkCharts fails the test unless every chart on the page drew, on a
// canvas, with WebGL where it should, and wanted charts are all there.
func (b *browser) checkCharts(t testing.TB, want ...string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, 3*time.Minute)
	defer cancel()
	checks, err := chromedp.Run(ctx, chromedp.Evaluate[[]chartCheck](checkChartsJS, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatalf("check charts: %v", err)
	}
	seen := map[string]bool{}
	for _, c := range checks {
		seen[c.ID] = true
		switch {
		case !c.Drawn || !c.Instance || c.Series == 0:
			t.Errorf("chart %s did not draw: %+v", c.ID, c)
		case c.Canvases == 0:
			t.Errorf("chart %s has no canvas", c.ID)
		case c.WantGL && c.WebGL == 0:
			t.Errorf("chart %s draws without WebGL: %+v", c.ID, c)
		}
	}
	for _, id := range want {
		if !seen[id] {
			t.Errorf("no chart %s on the page", id)
		}
	}
	t.Logf("%d charts drew", len(checks))
}

// screenshot saves a PNG of the whole page in the test's temporary folder
// and in shotDir. It scrolls a screen at a time, waits for the charts in
// view and stitches the screens: one capture of a tall page would exceed
// the compositor's texture size, and charts far from view are not drawn.
func (b *browser) screenshot(t *testing.T, name string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, 3*time.Minute)
	defer cancel()
	size, err := chromedp.Run(ctx, chromedp.Evaluate[[]int](`(() => {
		for (const el of document.querySelectorAll('.chart.sticky')) el.style.position = 'static';
		return [innerWidth, innerHeight, Math.min(document.documentElement.scrollHeight, 30000)];
	})()`))
	if err != nil {
		t.Fatalf("screenshot: %v", err)
	}
	page := image.NewRGBA(image.Rect(0, 0, size[0], size[2]))
	for y := 0; y < size[2]; y += size[1] {
		top, err := chromedp.Run(ctx, chromedp.Evaluate[int](fmt.Sprintf(`(async () => {
			scrollTo(0, %d);
			const inView = () => [...document.querySelectorAll('.chart')].filter(el => {
				const r = el.getBoundingClientRect();
				return el.offsetParent !== null && r.bottom > 0 && r.top < innerHeight;
			});
			for (let i = 0; i < 400 && !inView().every(el => el.dataset.state === 'drawn'); i++) await new Promise(r => setTimeout(r, 50));
			await new Promise(r => setTimeout(r, 300));
			return Math.round(scrollY);
		})()`, y), chromedp.EvalAwaitPromise))
		if err != nil {
			t.Fatalf("screenshot: %v", err)
		}
		shot, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
		if err != nil {
			t.Fatalf("screenshot: %v", err)
		}
		img, err := png.Decode(bytes.NewReader(shot))
		if err != nil {
			t.Fatalf("screenshot: %v", err)
		}
		draw.Draw(page, img.Bounds().Add(image.Pt(0, top)), img, image.Point{}, draw.Src)
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, page); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(shotDir, 0o755); err == nil {
		os.WriteFile(filepath.Join(shotDir, name), buf.Bytes(), 0o644)
	}
	t.Logf("screenshot %s (%dx%d, %d KB), copied to %s", path, size[0], size[2], buf.Len()>>10, shotDir)
}

// firstScreenJS waits until the charts in the first screen drew and returns
// the milliseconds since navigation started.
const firstScreenJS = `(async () => {
  const inView = () => [...document.querySelectorAll('.chart')].filter(el => el.offsetParent !== null && el.getBoundingClientRect().top < innerHeight);
  while (!inView().every(el => el.dataset.state === 'drawn')) await new Promise(r => setTimeout(r, 10));
  return performance.now();
})()`

// open loads url and returns how long the page took until the charts of the
// first screen drew.
func (b *browser) open(t testing.TB, url string) time.Duration {
	t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, 2*time.Minute)
	defer cancel()
	if err := chromedp.Do(ctx, chromedp.Navigate(url)); err != nil {
		t.Fatalf("open %s: %v", url, err)
	}
	ms, err := chromedp.Run(ctx, chromedp.Evaluate[float64](firstScreenJS, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatalf("wait for the first screen: %v", err)
	}
	nav, err := chromedp.Run(ctx, chromedp.Evaluate[map[string]float64](`(() => { const n = performance.getEntriesByType('navigation')[0];
		return {dcl: n.domContentLoadedEventEnd, load: n.loadEventEnd}; })()`))
	if err == nil {
		t.Logf("DOMContentLoaded %.0f ms, load %.0f ms", nav["dcl"], nav["load"])
	}
	times, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`[...document.querySelectorAll('.chart[data-drawn-ms]')].map(el => el.id + ' ' + el.dataset.startMs + '-' + el.dataset.drawnMs)`))
	if err == nil {
		t.Logf("charts drawn (ms since navigation): %s", strings.Join(times, ", "))
	}
	return time.Duration(ms * float64(time.Millisecond))
}

// TestBrowserReport renders the report of a real small sweep in headless
// Chromium and checks that every chart drew, the surfaces with WebGL, with
// nothing on the console.
//
// The report is written as by default, with the shipped chart scripts
// inlined, and the browser is offline; the same report with --assets cdn
// draws nothing there, which shows the browser really is offline.
func TestBrowserReport(t *testing.T) {
	b := newBrowser(t, 1500, 1000)
	path := sweepDB(t)
	html := filepath.Join(t.TempDir(), "small.html")
	writeReport(t, path, html, report.Options{})

	took := b.open(t, "file://"+html)
	t.Logf("first screen drawn %v after navigation", took.Round(time.Millisecond))
	b.checkCharts(t, "g0-s0-victim_gbps-3d", "g0-s0-victim_gbps-heat", "g0-s0-contributors_gbps-3d",
		"g0-s0-var-3d", "g0-s0-var-heat", "g0-pick0", "g0-fairness")
	b.screenshot(t, "report.png")
	checkCellsReadBack(t, b, path)
	for _, p := range b.problems() {
		t.Error(p)
	}

	cdn := filepath.Join(t.TempDir(), "cdn.html")
	writeReport(t, path, cdn, report.Options{Assets: report.CDNAssets()})
	ctx, cancel := context.WithTimeout(b.ctx, time.Minute)
	defer cancel()
	if err := chromedp.Do(ctx, chromedp.Navigate("file://"+cdn)); err != nil {
		t.Fatalf("open %s: %v", cdn, err)
	}
	note, err := chromedp.Run(ctx, chromedp.Evaluate[string](`(() => { const n = document.querySelector('p.offline');
		return (typeof echarts === 'undefined' ? 'no echarts: ' : 'echarts: ') + (n ? n.textContent : ''); })()`))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(note, "no echarts: The chart library did not load") {
		t.Errorf("the CDN report in the offline browser: %q; want no chart library and the offline note (is the browser online?)", note)
	}
}

// checkCellsReadBack checks that the page's script reads every cell of
// the page's compact table (cellsTable) back as the cell the database
// holds, in the form the serve page's /api/view sends and the formatters
// and the cell details read: status, seed counts, means to five
// significant digits, spreads over several done seeds, points, parameters
// and errors.
func checkCellsReadBack(t *testing.T, b *browser, dbPath string) {
	t.Helper()
	db, err := store.OpenReadOnly(dbPath)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ov, err := report.Load(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	sig5 := func(x float64) float64 {
		v, _ := strconv.ParseFloat(strconv.FormatFloat(x, 'g', 5, 64), 64)
		return v
	}
	for gi, g := range ov.Grids {
		got, err := chromedp.Run(b.ctx, chromedp.Evaluate[[]map[string]any](fmt.Sprintf(
			`Array.from({length: %d}, (_, ci) => window.ccsweep.cellOf({grid: %d}, ci))`, len(g.Cells), gi)))
		if err != nil {
			t.Fatal(err)
		}
		kinds := map[string]bool{}
		for ci, c := range g.Cells {
			want := map[string]any{"status": c.Status, "seeds": c.Seeds, "done": c.Done, "failed": c.Failed}
			if len(c.Mean) > 0 {
				mean := map[string]float64{}
				for m, v := range c.Mean {
					mean[m] = sig5(v)
				}
				want["mean"] = mean
			}
			if len(c.SD) > 0 && c.Done > 1 {
				want["sd"], kinds["spread"] = c.SD, true
			}
			if len(c.Points) > 0 {
				want["points"] = c.Points
			}
			if len(c.Params) > 0 {
				want["params"] = c.Params
			}
			if len(c.Errors) > 0 {
				want["errors"], kinds["errors"] = c.Errors, true
			}
			kinds[c.Status] = true
			var w map[string]any
			j, _ := json.Marshal(want)
			json.Unmarshal(j, &w)
			if ci >= len(got) || !reflect.DeepEqual(got[ci], w) {
				var g any
				if ci < len(got) {
					g = got[ci]
				}
				t.Errorf("grid %d cell %d as the page reads it:\n%v\nwant\n%v", gi, ci, g, w)
			}
		}
		t.Logf("grid %d: %d cells read back (%v)", gi, len(g.Cells), kinds)
	}
	// Every heat-map point's tooltip, as the page writes it for the
	// current slice: the spread and the seed counts of its cell.
	tips, err := chromedp.Run(b.ctx, chromedp.Evaluate[[][]any](`(() => {
		const out = [], st = window.ccsweep;
		for (const spec of Object.values(st.specs)) {
			if (spec.kind !== 'heatmap') continue;
			for (const v of st.optionOf(spec).series[0].data) out.push([spec.meta.grid, v[3], st.formatter('cell', spec.meta)({value: v, seriesIndex: 0})]);
		}
		return out;
	})()`))
	if err != nil {
		t.Fatal(err)
	}
	spread := regexp.MustCompile(`: [-0-9.e]+ ± [-0-9.e]+( |</b>)`)
	for _, tip := range tips {
		gi, ci, text := int(tip[0].(float64)), int(tip[1].(float64)), tip[2].(string)
		c := ov.Grids[gi].Cells[ci]
		seeds := fmt.Sprintf("mean ± sd over %d of %d seeds", c.Done, c.Seeds)
		if strings.Contains(text, seeds) != (c.Done > 1 || c.Seeds > 1) || spread.MatchString(text) != (c.Done > 1) ||
			strings.Contains(text, "failed") != (c.Failed > 0) {
			t.Errorf("grid %d cell %d (%d done, %d failed of %d seeds): tooltip %q", gi, ci, c.Done, c.Failed, c.Seeds, text)
		}
	}
	if len(tips) == 0 {
		t.Error("no heat-map point to check the tooltip of")
	}
	t.Logf("%d heat-map tooltips checked", len(tips))
}

// writeReport writes the report of the database at dbPath to file.
func writeReport(t testing.TB, dbPath, file string, opt report.Options) {
	t.Helper()
	if err := os.WriteFile(file, []byte(writeHTML(t, dbPath, opt)), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestBrowserServe browses a database with ccsweep serve's page: the
// surface and heat map draw, clicking a cell shows its time series, and
// the page picks up points written meanwhile.
func TestBrowserServe(t *testing.T) {
	b := newBrowser(t, 1500, 1100)
	path := sweepDB(t)
	db, err := store.OpenReadOnly(path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	srv := httptest.NewServer(report.NewServer(db, report.ServerOptions{}))
	defer srv.Close()

	took := b.open(t, srv.URL+"/")
	t.Logf("first screen drawn %v after navigation", took.Round(time.Millisecond))
	b.checkCharts(t, "x-3d", "x-heat")

	// Click the heat map's first cell.
	ctx, cancel := context.WithTimeout(b.ctx, time.Minute)
	defer cancel()
	xy, err := chromedp.Run(ctx, chromedp.Evaluate[[]float64](`(() => {
		const el = document.getElementById('x-heat'), r = el.getBoundingClientRect();
		el.scrollIntoView({block: 'center'});
		const r2 = el.getBoundingClientRect();
		const p = window.ccsweep.live.get('x-heat').convertToPixel({seriesIndex: 0}, [0, 0]);
		return [r2.left + p[0], r2.top + p[1]];
	})()`))
	if err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(ctx, chromedp.MouseClickXY(xy[0], xy[1])); err != nil {
		t.Fatal(err)
	}
	title, err := chromedp.Run(ctx, chromedp.Evaluate[string](`(async () => {
		const el = document.getElementById('x-series');
		for (let i = 0; i < 400 && el.dataset.state !== 'drawn'; i++) await new Promise(r => setTimeout(r, 50));
		return document.getElementById('x-point').hidden ? '' : document.getElementById('x-point-title').textContent;
	})()`, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(title, "ccti_timer=") {
		t.Fatalf("clicking a heat-map cell showed %q, want the point's parameters", title)
	}
	b.checkCharts(t, "x-3d", "x-heat", "x-series")
	b.screenshot(t, "serve.png")
	for _, p := range b.problems() {
		t.Error(p)
	}
}

// TestBrowserReportGrids renders a report of two made-up grids, one with
// three numeric axes (nine WebGL surfaces: more than the page keeps alive
// at once) and its schemes side by side, and one drawn as lines, and
// switches a surface's slice.
func TestBrowserReportGrids(t *testing.T) {
	b := newBrowser(t, 1500, 1000)
	html := filepath.Join(t.TempDir(), "grids.html")
	writeReport(t, fakeDB(t, "golden", "lines"), html, report.Options{})
	b.open(t, "file://"+html)
	// g0-cmp-*-1: the side-by-side heat maps of cc on (off is one point).
	b.checkCharts(t, "g0-s2-var-3d", "g0-cmp-victim_gbps-1", "g0-cmp-var-1", "g1-line-victim_gbps", "g1-line-var", "g1-fairness")

	ctx, cancel := context.WithTimeout(b.ctx, time.Minute)
	defer cancel()
	changed, err := chromedp.Run(ctx, chromedp.Evaluate[[]int](`(async () => {
		const sel = document.querySelector('.slice[data-surface="g0-s2"] select[data-dim="threshold"]');
		sel.scrollIntoView({block: 'center'});
		await new Promise(r => setTimeout(r, 500));
		const id = 'g0-s2-victim_gbps-heat';
		const before = JSON.stringify(ccsweep.live.get(id).getOption().series[0].data);
		sel.value = sel.value === '7' ? '15' : '7';
		sel.dispatchEvent(new Event('change'));
		await new Promise(r => setTimeout(r, 500));
		const after = JSON.stringify(ccsweep.live.get(id).getOption().series[0].data);
		return [ccsweep.specs[id].current, before === after ? 0 : 1];
	})()`, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatal(err)
	}
	if changed[1] != 1 {
		t.Errorf("switching threshold left the heat map as it was (slice %d)", changed[0])
	}
	b.screenshot(t, "report-grids.png")
	for _, p := range b.problems() {
		t.Error(p)
	}
}
