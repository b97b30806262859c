package store_test

import (
	"database/sql"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/ccsweep/ccsweep/store"
)

// TestReadersDropNonFiniteValues writes infinities into a database by hand
// (SQLite reads 9e999 as +Inf; store never writes one): every reader of
// results gives the metric as absent and the wall time as 0 (unknown).
func TestReadersDropNonFiniteValues(t *testing.T) {
	d, path := newDB(t)
	ctx := t.Context()
	p1, p2 := doneResult("p1", testGrid.ID), doneResult("p2", testGrid.ID)
	p1.WallSeconds, p2.WallSeconds = 1.5, 1.5
	if err := d.SaveResults(ctx, []store.Result{p1, p2}); err != nil {
		t.Fatal(err)
	}
	raw, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	if _, err := raw.Exec(`UPDATE points SET victim_gbps = 9e999, fairness_jain = -9e999, wall_seconds = 9e999 WHERE id = 'p1'`); err != nil {
		t.Fatal(err)
	}
	all, err := d.Results(ctx, store.Filter{})
	if err != nil {
		t.Fatal(err)
	}
	of, err := d.ResultsOf(ctx, []string{"p1", "p2"})
	if err != nil {
		t.Fatal(err)
	}
	for name, rs := range map[string][]store.Result{"Results": all, "ResultsOf": of} {
		if len(rs) != 2 {
			t.Fatalf("%s: %d results", name, len(rs))
		}
		for _, r := range rs {
			_, hasVictim := r.Metrics["victim_gbps"]
			_, hasJain := r.Metrics["fairness_jain"]
			if r.ID == "p1" && (hasVictim || hasJain || r.WallSeconds != 0) {
				t.Errorf("%s: p1 read back as %v, wall %v; want both metrics absent, wall 0", name, r.Metrics, r.WallSeconds)
			}
			if r.ID == "p2" && (!hasVictim || r.WallSeconds == 0) {
				t.Errorf("%s: p2 lost its values: %v, wall %v", name, r.Metrics, r.WallSeconds)
			}
			for m, v := range r.Metrics {
				if math.IsInf(v, 0) || math.IsNaN(v) {
					t.Errorf("%s: %s %s = %v", name, r.ID, m, v)
				}
			}
		}
	}
}

// TestOpenRefusesADatabaseMissingATable drops each table of a database in
// turn: both ways of opening it refuse it as damaged, naming the table,
// instead of failing later with a raw SQL error or reading it as empty.
func TestOpenRefusesADatabaseMissingATable(t *testing.T) {
	for _, table := range []string{"grids", "runs", "points", "point_params", "series", "claims"} {
		t.Run(table, func(t *testing.T) {
			d, path := newDB(t)
			if err := d.SaveResults(t.Context(), []store.Result{doneResult("p1", testGrid.ID)}); err != nil {
				t.Fatal(err)
			}
			d.Close()
			raw, err := sql.Open("sqlite", path)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := raw.Exec(`PRAGMA foreign_keys = OFF; DROP TABLE ` + table); err != nil {
				t.Fatal(err)
			}
			raw.Close()
			for name, open := range map[string]func(string) (*store.DB, error){"Open": store.Open, "OpenReadOnly": store.OpenReadOnly} {
				db, err := open(path)
				if err == nil {
					db.Close()
				}
				if !errors.Is(err, store.ErrNotDatabase) || !strings.Contains(err.Error(), "damaged: table "+table+" is missing") {
					t.Errorf("%s: %v; want ErrNotDatabase naming table %s", name, err, table)
				}
			}
		})
	}
}

// TestMeanDevNeverOverflows: values near MaxFloat64, whose plain sums
// overflow, give their exact mean and deviation; ordinary values give what
// the plain sums give, bit for bit.
func TestMeanDevNeverOverflows(t *testing.T) {
	const big = 1.7e308
	for _, c := range []struct {
		xs        []float64
		div       float64
		mean, dev float64
	}{
		{[]float64{big, big}, 1, big, 0},
		{[]float64{big, -big}, 2, 0, big},
		{[]float64{big, big, -big, -big}, 4, 0, big},
	} {
		mean, dev := store.MeanDev(c.xs, c.div)
		if math.Abs(mean-c.mean) > 1e-12*big || math.Abs(dev-c.dev) > 1e-12*big {
			t.Errorf("MeanDev(%v, %v) = %g, %g; want %g, %g", c.xs, c.div, mean, dev, c.mean, c.dev)
		}
	}
	xs := []float64{0.1, 0.7, 1e-3, 13.25, 2.5}
	var sum, ss float64
	for _, x := range xs {
		sum += x
	}
	m := sum / 5
	for _, x := range xs {
		ss += (x - m) * (x - m)
	}
	if mean, dev := store.MeanDev(xs, 4); mean != m || dev != math.Sqrt(ss/4) {
		t.Errorf("MeanDev(%v) = %v, %v; want the plain sums' %v, %v", xs, mean, dev, m, math.Sqrt(ss/4))
	}
}
