package report_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/ccsweep/ccsweep/report"
	"github.com/ccsweep/ccsweep/store"
)

// writeHTML returns the report of the database at path.
func writeHTML(t testing.TB, path string, opt report.Options) string {
	t.Helper()
	db, err := store.OpenReadOnly(path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var buf bytes.Buffer
	if err := report.Write(context.Background(), &buf, db, opt); err != nil {
		t.Fatal(err)
	}
	return buf.String()
}

var dataRE = regexp.MustCompile(`(?s)<script type="application/json" id="ccsweep-data">(.*?)</script>`)

// TestWriteEscapesDatabaseText checks that text from the database (a
// grid's description, a failed point's error) cannot end the page's
// scripts or add elements.
func TestWriteEscapesDatabaseText(t *testing.T) {
	path := fakeDB(t, "lines")
	db, err := store.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	evil := `</script><script>alert(1)</script><evil-tag>`
	g := loadGrid(t, "testdata/golden/lines.toml")
	g.Description = evil
	ctx := context.Background()
	if err := db.SaveGrid(ctx, store.GridRecord{ID: "evil", Name: "evil", Scenario: g.Scenario, ModelVersion: "test",
		Canonical: g.Canonical()}); err != nil {
		t.Fatal(err)
	}
	r := fakeResult(g.Points()[0], "evil-1", "evil", 0)
	r.Status, r.Err, r.Series, r.Metrics = store.StatusFailed, evil, nil, nil
	if err := db.SaveResults(ctx, []store.Result{r}); err != nil {
		t.Fatal(err)
	}
	db.Close()

	html := writeHTML(t, path, report.Options{})
	if strings.Contains(html, "<script>alert") || strings.Contains(html, "<evil-tag") {
		t.Error("database text reached the page unescaped")
	}
	// Two CDN scripts, the data, the page's script.
	if n := strings.Count(html, "<script"); n != 4 {
		t.Errorf("%d script elements, want 4", n)
	}
	m := dataRE.FindStringSubmatch(html)
	if m == nil {
		t.Fatal("no chart data")
	}
	var data struct {
		Charts map[string]json.RawMessage `json:"charts"`
	}
	if err := json.Unmarshal([]byte(m[1]), &data); err != nil || len(data.Charts) == 0 {
		t.Fatalf("chart data: %v, %d charts", err, len(data.Charts))
	}
	for id := range data.Charts {
		if !strings.Contains(html, `id="`+id+`"`) {
			t.Errorf("chart %s has no element", id)
		}
	}
}

// TestWriteInlinesShippedScripts checks that a report written with no
// assets given is one file that needs no network: the shipped releases are
// inlined whole, and nothing is loaded from elsewhere.
func TestWriteInlinesShippedScripts(t *testing.T) {
	page := writeHTML(t, fakeDB(t, "lines"), report.Options{})
	shipped := report.EmbeddedAssets()
	for _, name := range []string{"echarts.min.js", "echarts-gl.min.js"} {
		code, err := shipped.Open(name)
		if err != nil {
			t.Fatal(err)
		}
		inlined := "<script>" + strings.ReplaceAll(code, "</script", `<\/script`) + "</script>"
		if len(code) < 500_000 || !strings.Contains(page, inlined) {
			t.Errorf("the default report does not inline the shipped %s whole (%d bytes)", name, len(code))
		}
		page = strings.Replace(page, inlined, "", 1) // the libraries name map-tile URLs they do not load
	}
	for _, external := range []string{` src="http`, ` href="http`, ` integrity="`} {
		if strings.Contains(page, external) {
			t.Errorf("the default report refers to the network: %s", external)
		}
	}
}

func TestWriteLoadsPinnedScripts(t *testing.T) {
	path := fakeDB(t, "lines")
	cdn := writeHTML(t, path, report.Options{Assets: report.CDNAssets()})
	for _, want := range []string{
		`src="https://cdn.jsdelivr.net/npm/echarts@` + report.EChartsVersion + `/dist/echarts.min.js" integrity="sha384-`,
		`src="https://cdn.jsdelivr.net/npm/echarts-gl@` + report.EChartsGLVersion + `/dist/echarts-gl.min.js" integrity="sha384-`,
	} {
		if !strings.Contains(cdn, want) {
			t.Errorf("CDN report lacks %s", want)
		}
	}

	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "echarts.min.js"), []byte(`var echarts={version="`+report.EChartsVersion+`"};/*</script>*/`), 0o644)
	os.WriteFile(filepath.Join(dir, "echarts-gl.min.js"), []byte(`e["echarts-gl"]=1;`), 0o644)
	a, err := report.LoadAssets(dir)
	if err != nil {
		t.Fatal(err)
	}
	inline := writeHTML(t, path, report.Options{Assets: a})
	if strings.Contains(inline, `src="https://cdn.jsdelivr.net`) || !strings.Contains(inline, `e["echarts-gl"]=1;`) ||
		!strings.Contains(inline, `/*<\/script>*/`) {
		t.Error("inlined report does not embed the scripts, escaped, instead of the CDN")
	}
}

func TestLoadAssetsChecksRelease(t *testing.T) {
	dir := t.TempDir()
	if _, err := report.LoadAssets(dir); err == nil {
		t.Error("empty folder accepted")
	}
	os.WriteFile(filepath.Join(dir, "echarts.min.js"), []byte(`version="4.9.0"`), 0o644)
	os.WriteFile(filepath.Join(dir, "echarts-gl.min.js"), []byte(`e["echarts-gl"]`), 0o644)
	if _, err := report.LoadAssets(dir); err == nil || !strings.Contains(err.Error(), report.EChartsVersion) {
		t.Errorf("echarts 4 accepted: %v", err)
	}
}
