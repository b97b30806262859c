package store_test

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"math"
	"math/big"
	"strings"
	"testing"

	"github.com/ccsweep/ccsweep/store"
)

func TestTQuantileMatchesTheTable(t *testing.T) {
	// Two-sided 95 % quantiles of Student's t, from any statistics table.
	for dof, want := range map[int]float64{1: 12.706, 2: 4.303, 4: 2.776, 9: 2.262, 29: 2.045, 1000: 1.962} {
		if got := store.TQuantile(dof); math.Abs(got-want) > 5e-4 {
			t.Errorf("TQuantile(%d) = %.4f, want %.3f", dof, got, want)
		}
	}
}

func TestStatOf(t *testing.T) {
	s := store.StatOf([]float64{1, 2, 3})
	if s.N != 3 || s.Mean != 2 || s.SD != 1 || math.Abs(s.HalfWidth-4.3027/math.Sqrt(3)) > 1e-3 {
		t.Errorf("StatOf(1, 2, 3) = %+v; want mean 2, sd 1, half-width 4.303/√3", s)
	}
	if s.Precise(1) || !s.Precise(1.25) {
		t.Errorf("half-width %.3f of mean 2: precise to 100 %% %v, to 125 %% %v", s.HalfWidth, s.Precise(1), s.Precise(1.25))
	}
	one := store.StatOf([]float64{5})
	if one.SD != 0 || !math.IsInf(one.HalfWidth, 1) || one.Precise(0.99) {
		t.Errorf("one seed: %+v; its spread is unknown", one)
	}
}

func TestSummarizeAndExportSummary(t *testing.T) {
	d := exportDB(t)
	// Two more seeds of marking_rate 2: victim 12.9, 13, 13.2 over seeds
	// 1..3 (stored out of order).
	r := doneResult("p9", testGrid.ID)
	r.Point.Seed = 3
	r.Point.Params = []store.Param{{Name: "ccti_timer", Value: "150us"}, {Name: "marking_rate", Value: "2"}}
	r.Metrics = map[string]float64{"victim_gbps": 13.2}
	if err := d.SaveResults(t.Context(), []store.Result{r}); err != nil {
		t.Fatal(err)
	}
	rs, err := d.Results(t.Context(), store.Filter{})
	if err != nil {
		t.Fatal(err)
	}
	var two *store.Summary
	for _, s := range store.Summarize(rs) {
		if v, _ := s.Value("marking_rate"); v == "2" {
			two = s
		}
	}
	if two == nil || len(two.Seeds) != 3 || two.Seeds[0] != 1 || two.Seeds[2] != 3 || two.IDs[0] != "p3" {
		t.Fatalf("summary of marking_rate 2: %+v; want seeds 1, 2, 3 in order", two)
	}
	v := two.Metrics["victim_gbps"]
	wantSD := math.Sqrt(((12.9-13.033333333333333)*(12.9-13.033333333333333) + (13-13.033333333333333)*(13-13.033333333333333) + (13.2-13.033333333333333)*(13.2-13.033333333333333)) / 2)
	if math.Abs(v.Mean-13.033333333333333) > 1e-12 || math.Abs(v.SD-wantSD) > 1e-12 || math.Abs(v.HalfWidth-store.TQuantile(2)*wantSD/math.Sqrt(3)) > 1e-12 {
		t.Errorf("victim_gbps over 3 seeds: %+v", v)
	}
	if n := two.Metrics["contributors_gbps"].N; n != 2 {
		t.Errorf("contributors_gbps has %d values; seed 3 has none", n)
	}

	var b bytes.Buffer
	if err := d.ExportSummaryCSV(t.Context(), &b, exportOptions); err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(&b).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	head := strings.Join(recs[0], ",")
	if !strings.HasPrefix(head, "grid,grid_id,scenario,cc_level,ccti_timer,marking_rate,threshold,seeds,victim_gbps_mean,victim_gbps_sd,victim_gbps_ci95,contributors_gbps_mean") {
		t.Errorf("header %s", head)
	}
	// One row per point: p2, p3 and p9 are one; p1, p4, p5, p6 and p7
	// one each.
	if len(recs) != 1+6 {
		t.Errorf("%d rows, want 6:\n%v", len(recs)-1, recs)
	}
	var row []string
	for _, rec := range recs[1:] {
		if rec[5] == "2" {
			row = rec
		}
	}
	col := func(name string) string { return row[index(recs[0], name)] }
	if col("seeds") != "3" || !strings.HasPrefix(col("victim_gbps_mean"), "13.03333333333333") || col("contributors_gbps_ci95") != "0" {
		t.Errorf("row of marking_rate 2: %v", row)
	}
	b.Reset()
	if err := d.ExportSummaryJSON(t.Context(), &b, exportOptions); err != nil {
		t.Fatal(err)
	}
	var objs []map[string]any
	if err := json.Unmarshal(b.Bytes(), &objs); err != nil {
		t.Fatalf("%v\n%s", err, b.String())
	}
	if len(objs) != len(recs)-1 {
		t.Errorf("json has %d objects, csv %d rows", len(objs), len(recs)-1)
	}
	for _, o := range objs {
		if o["seeds"].(float64) == 1 && o["victim_gbps_ci95"] != nil {
			t.Errorf("one seed: ci95 %v, want null", o["victim_gbps_ci95"])
		}
	}
}

func index(list []string, s string) int {
	for i, x := range list {
		if x == s {
			return i
		}
	}
	return -1
}

// exactDev is sqrt(Σ(x−mean)²/div) computed in exact rational arithmetic
// from the float64 values, then rounded once: on the values divided by the
// largest magnitude, so that the square of a deviation near MaxFloat64
// does not overflow the final conversion.
func exactDev(xs []float64, div float64) float64 {
	scale := 0.0
	for _, x := range xs {
		scale = max(scale, math.Abs(x))
	}
	s := new(big.Rat).SetFloat64(scale)
	n := new(big.Rat).SetInt64(int64(len(xs)))
	sum := new(big.Rat)
	for _, x := range xs {
		sum.Add(sum, new(big.Rat).SetFloat64(x))
	}
	mean := new(big.Rat).Quo(sum, n)
	ss := new(big.Rat)
	for _, x := range xs {
		d := new(big.Rat).Sub(new(big.Rat).SetFloat64(x), mean)
		d.Quo(d, s)
		ss.Add(ss, d.Mul(d, d))
	}
	ss.Quo(ss, new(big.Rat).SetFloat64(div))
	v, _ := ss.Float64()
	return math.Sqrt(v) * scale
}

// TestMutMeanDevIsAccurateFarFromZero checks MeanDev's deviation where
// the values are large and their spread small: it subtracts the mean
// before squaring, so it is exact to rounding, where Σx² − n·mean² loses
// every digit (x² near 1e16 has an ulp of 2, the sum of squared
// deviations here is 0.05). The second case goes through the scaled path
// for values near MaxFloat64, whose spread is 7e-12 of the values (there
// the mean of the scaled values is not exact, and a product of sums
// instead of a square is off by 2e-5).
func TestMutMeanDevIsAccurateFarFromZero(t *testing.T) {
	big1 := math.MaxFloat64
	big2 := big1 * (1 - 1e-12)
	big3 := big1 * (1 - 7e-12)
	cases := []struct {
		name string
		xs   []float64
		div  float64
	}{
		{"1e8 plus tenths", []float64{1e8 + 0.1, 1e8 + 0.2, 1e8 + 0.3, 1e8 + 0.4}, 3},
		{"near MaxFloat64", []float64{big1, big2, big3}, 2},
	}
	for _, c := range cases {
		_, dev := store.MeanDev(c.xs, c.div)
		want := exactDev(c.xs, c.div)
		if math.IsInf(want, 0) || !(math.Abs(dev-want) <= 1e-9*want) {
			t.Errorf("%s: MeanDev(%v, %v) deviation %v, want %v", c.name, c.xs, c.div, dev, want)
		}
	}
}
