package main

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/ccsweep/ccsweep/report"
	"github.com/ccsweep/ccsweep/store"
)

// overlapA and overlapB share one point: marking_rate 4 at ccti_timer
// 300us. B spells it with threshold = 15 (an axis value, the default),
// which A leaves out: the same simulation, which B's report must draw in
// its threshold 15 cell.
const overlapA = `
name     = "a"
scenario = "testbed-s1"
cc       = "on"
phase    = "4ms"
sample   = "1ms"

[sweep]
ccti_timer   = ["100us", "300us"]
marking_rate = [0, 4]
`

const overlapB = `
name     = "b"
scenario = "testbed-s1"
cc       = "on"
phase    = "4ms"
sample   = "1ms"

[sweep]
ccti_timer   = ["300us"]
marking_rate = [4]
threshold    = [15, 8]
`

// exportRowsOf returns the CSV export's rows of grid name, each a map
// from column to cell, grid_id left out, and the header.
func exportRowsOf(t *testing.T, csv, name string) ([]map[string]string, []string) {
	t.Helper()
	lines := strings.Split(strings.TrimSpace(csv), "\n")
	header := strings.Split(lines[0], ",")
	var rows []map[string]string
	for _, line := range lines[1:] {
		f := strings.Split(line, ",")
		if len(f) != len(header) {
			t.Fatalf("row %q has %d cells, the header %d", line, len(f), len(header))
		}
		if f[0] != name {
			continue
		}
		row := map[string]string{}
		for i, h := range header {
			if h != "grid_id" {
				row[h] = f[i]
			}
		}
		rows = append(rows, row)
	}
	return rows, header
}

// cells returns the cells of the named columns of each row, joined.
func cells(rows []map[string]string, cols ...string) []string {
	var out []string
	for _, r := range rows {
		var c []string
		for _, name := range cols {
			c = append(c, r[name])
		}
		out = append(out, strings.Join(c, " "))
	}
	return out
}

// TestOverlappingGridsShowTheirSharedPoints checks that the views of a
// grid show every point of it that is in the database, whoever ran it:
// after grids A then B, which share a point that A ran, B's export rows,
// best ranking, report cells and status count include it, once; A's views
// stay as they were.
func TestOverlappingGridsShowTheirSharedPoints(t *testing.T) {
	ctx := context.Background()
	a, b := writeGrid(t, overlapA), writeGrid(t, overlapB)
	db := t.TempDir() + "/both.db"
	if out, stderr, code := ccsweep(t, a, "--db", db, "--quiet", "--no-report"); code != 0 {
		t.Fatalf("run a: exit %d\n%s%s", code, out, stderr)
	}
	before, _, _ := ccsweep(t, "export", db)
	beforeA, header := exportRowsOf(t, before, "a")
	if len(beforeA) != 4 {
		t.Fatalf("grid a exports %d rows, want 4:\n%s", len(beforeA), before)
	}
	out, stderr, code := ccsweep(t, b, "--db", db, "--no-report")
	if code != 0 || !strings.Contains(out, "1 already done") || !strings.Contains(out, "1 ran") {
		t.Fatalf("run b: exit %d, want 1 already done and 1 ran:\n%s%s", code, out, stderr)
	}

	csv, stderr, code := ccsweep(t, "export", db)
	if code != 0 {
		t.Fatalf("export: exit %d: %s", code, stderr)
	}
	// Grid b adds a threshold column; a's rows keep every cell they had.
	afterA, _ := exportRowsOf(t, csv, "a")
	if got, was := cells(afterA, header...), cells(beforeA, header...); !slices.Equal(got, was) {
		t.Errorf("grid a's rows changed when b ran:\n%s\nwas\n%s", strings.Join(got, "\n"), strings.Join(was, "\n"))
	}
	rowsB, _ := exportRowsOf(t, csv, "b")
	if got, want := cells(rowsB, "ccti_timer", "marking_rate", "threshold", "seed"), []string{"300us 4 8 1", "300us 4 15 1"}; !slices.Equal(got, want) {
		t.Errorf("grid b exports (ccti_timer marking_rate threshold seed) %q, want %q:\n%s", got, want, csv)
	}
	metrics := header[slices.Index(header, "seed")+1:]
	shared := func(rows []map[string]string) string {
		for _, r := range rows {
			if r["ccti_timer"] == "300us" && r["marking_rate"] == "4" && (r["threshold"] == "" || r["threshold"] == "15") {
				return strings.Join(cells([]map[string]string{r}, metrics...), "")
			}
		}
		return ""
	}
	if ma, mb := shared(beforeA), shared(rowsB); ma == "" || ma != mb {
		t.Errorf("the shared point's metrics differ between a (%s) and b (%s)", ma, mb)
	}
	js, _, code := ccsweep(t, "export", db, "--summary", "--format", "json")
	if code != 0 || strings.Count(js, `"grid": "b"`) != 2 || strings.Count(js, `"grid": "a"`) != 4 {
		t.Errorf("summary export: exit %d, want 4 rows of a and 2 of b:\n%s", code, js)
	}

	for _, tc := range []struct{ grid, want string }{
		{"b", "b: 2 points"},
		{"a", "a: 4 points"},
		{"", "a, b: 5 points"}, // the shared point once
	} {
		args := []string{"best", db, "--maximize", "victim_gbps"}
		if tc.grid != "" {
			args = append(args, "--grid", tc.grid)
		}
		out, stderr, code := ccsweep(t, args...)
		if code != 0 || !strings.HasPrefix(out, tc.want+";") {
			t.Errorf("best --grid %q: exit %d, want %q:\n%s%s", tc.grid, code, tc.want, out, stderr)
		}
	}

	status, _, _ := ccsweep(t, "status", db)
	for _, want := range []string{"grid a (", "grid b ("} {
		i := strings.Index(status, want)
		n := map[string]string{"grid a (": "4 points done", "grid b (": "2 points done"}[want]
		if i < 0 || !strings.Contains(strings.SplitN(status[i:], "\n", 2)[0], n) {
			t.Errorf("status: want %s%s:\n%s", want, n, status)
		}
	}

	// A grid whose empty sub-grid repeats a point of its [sweep] (the
	// point with no marking_rate is marking_rate 1): planned once.
	c := writeGrid(t, strings.Replace(overlapA, `name     = "a"`, `name     = "c"`, 1)[:strings.Index(overlapA, "[sweep]")]+
		"[sweep]\nmarking_rate = [0, 1]\n\n[[grid]]\n")
	if out, stderr, code := ccsweep(t, c, "--db", db, "--quiet", "--no-report"); code != 0 {
		t.Fatalf("run c: exit %d\n%s%s", code, out, stderr)
	}

	rdb, err := store.OpenReadOnly(db)
	if err != nil {
		t.Fatal(err)
	}
	defer rdb.Close()
	ov, err := report.Load(ctx, rdb)
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range ov.Grids {
		want := map[string]int{"a": 4, "b": 2, "c": 2}[g.Name]
		if g.Done != want || g.Missing != 0 || g.Planned != want || len(g.Cells) != want {
			t.Errorf("report of %s: %d planned, %d done, %d missing, %d cells; want %d, %d, 0, %d",
				g.Name, g.Planned, g.Done, g.Missing, len(g.Cells), want, want, want)
		}
		for _, c := range g.Cells {
			if c.Status != report.CellDone {
				t.Errorf("report of %s: cell %v is %s", g.Name, c.Key, c.Status)
			}
		}
	}
}
