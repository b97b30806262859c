package store_test

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strconv"
	"testing"

	"github.com/ccsweep/ccsweep/store"
)

// The properties below follow Merge's documented rules (its doc comment,
// `ccsweep merge --help`, docs/clusters.md, "Merging by hand"): a point stored
// in several inputs is kept once; a done result wins over a failed one,
// and otherwise the first one met (dst's own, then the sources in order)
// wins; its parameters, series and run come with it; merging again changes
// nothing; inputs of more than one grid or model version are refused
// unless forced, leaving dst as it was.

// mergeCopy is one input's copy of a point: done with a victim
// throughput and, for some, a series, or failed with a message.
type mergeCopy struct {
	id     string
	done   bool
	victim float64
	series bool
	err    string
}

// result returns c as a result of testGrid, one seed, its parameter
// marking_rate the point's number, so that every point exports its own row.
func (c mergeCopy) result() store.Result {
	n, _ := strconv.Atoi(c.id[1:])
	r := doneResult(c.id, testGrid.ID)
	r.Point.Params = []store.Param{{Name: "marking_rate", Value: strconv.Itoa(n)}}
	if !c.done {
		r.Status, r.Err, r.Metrics = store.StatusFailed, c.err, nil
		return r
	}
	r.Metrics = map[string]float64{"victim_gbps": c.victim}
	if c.series {
		r.Series = []store.Series{{Flow: "F1", Role: "victim", SampleSeconds: 1e-3, Gbps: []float64{c.victim, c.victim / 2}}}
	}
	return r
}

// writeInput creates a database at path holding testGrid, one run whose
// command line is {name}, and the copies, stored with that run.
func writeInput(t *testing.T, path, name string, copies []mergeCopy) {
	t.Helper()
	d, err := store.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	ctx := t.Context()
	if err := d.SaveGrid(ctx, testGrid); err != nil {
		t.Fatal(err)
	}
	runID, err := d.BeginRun(ctx, store.Run{Version: "v1", ModelVersion: "m1", Workers: 1, Args: []string{name}})
	if err != nil {
		t.Fatal(err)
	}
	var rs []store.Result
	for _, c := range copies {
		r := c.result()
		r.RunID = runID
		rs = append(rs, r)
	}
	if err := d.SaveResults(ctx, rs); err != nil {
		t.Fatal(err)
	}
}

// randomInputs draws two to four inputs over the points p0..p5: each holds
// each of p0..p4 with probability 1/2, done (a third of them with a series)
// or failed, and p5 failed. With consistent set, a done copy's victim throughput depends on
// the point alone, as it does for shards of one deterministic grid;
// otherwise every copy has its own, so that which copy a merge keeps shows.
func randomInputs(rng *rand.Rand, consistent bool) [][]mergeCopy {
	inputs := make([][]mergeCopy, 2+rng.IntN(3))
	for k := range inputs {
		for i := range 6 {
			if i < 5 && rng.IntN(2) == 0 {
				continue
			}
			// p5 failed in every input: the first failure is kept.
			c := mergeCopy{id: fmt.Sprintf("p%d", i), done: i < 5 && rng.IntN(5) < 3, err: fmt.Sprintf("failed in input %d", k)}
			c.victim = float64(10*k + i + 1)
			if consistent {
				c.victim = float64(i + 1)
			}
			c.series = c.done && rng.IntN(3) == 0
			inputs[k] = append(inputs[k], c)
		}
	}
	return inputs
}

// expectMerge returns, by point, the copy the documented rule keeps when
// the inputs are met in order, and the input it comes from.
func expectMerge(inputs [][]mergeCopy, order []int) (map[string]mergeCopy, map[string]int) {
	kept, from := map[string]mergeCopy{}, map[string]int{}
	for _, k := range order {
		for _, c := range inputs[k] {
			old, ok := kept[c.id]
			if !ok || (!old.done && c.done) {
				kept[c.id], from[c.id] = c, k
			}
		}
	}
	return kept, from
}

// checkMerged fails unless the database at path holds exactly the copies
// of want, each with its series and the run of the input it came from.
func checkMerged(t *testing.T, seed uint64, path string, want map[string]mergeCopy, from map[string]int) {
	t.Helper()
	d, err := store.OpenReadOnly(path)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	integrityCheck(t, d)
	results, err := d.Results(t.Context(), store.Filter{})
	if err != nil {
		t.Fatal(err)
	}
	runs, err := d.Runs(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	runOf := map[int64]string{}
	for _, r := range runs {
		runOf[r.ID] = r.Args[0]
	}
	if len(results) != len(want) {
		t.Errorf("seed %d: merged %d points, want %d", seed, len(results), len(want))
	}
	for _, r := range results {
		c, ok := want[r.ID]
		switch {
		case !ok:
			t.Errorf("seed %d: merged point %s is in no input", seed, r.ID)
			continue
		case c.done && (r.Status != store.StatusDone || r.Metrics["victim_gbps"] != c.victim):
			t.Errorf("seed %d: point %s is %s with victim %g, want done with %g (input %d's)", seed, r.ID, r.Status, r.Metrics["victim_gbps"], c.victim, from[c.id])
		case !c.done && (r.Status != store.StatusFailed || r.Err != c.err):
			t.Errorf("seed %d: point %s is %s %q, want failed %q", seed, r.ID, r.Status, r.Err, c.err)
		}
		if got, want := runOf[r.RunID], fmt.Sprint("input ", from[c.id]); got != want {
			t.Errorf("seed %d: point %s has the run of %q, want %q's", seed, r.ID, got, want)
		}
		if len(r.Point.Params) != 1 || r.Point.Params[0].Value != r.ID[1:] {
			t.Errorf("seed %d: point %s has parameters %v", seed, r.ID, r.Point.Params)
		}
		series, err := d.Series(t.Context(), r.ID)
		if err != nil {
			t.Fatal(err)
		}
		if wantN := map[bool]int{false: 0, true: 1}[c.series]; len(series) != wantN ||
			(c.series && !slices.Equal(series[0].Gbps, []float64{c.victim, c.victim / 2})) {
			t.Errorf("seed %d: point %s has series %+v, want those of input %d's copy (%d)", seed, r.ID, series, from[c.id], wantN)
		}
	}
}

func exportOf(t *testing.T, path string) []byte {
	t.Helper()
	d, err := store.OpenReadOnly(path)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	var buf bytes.Buffer
	if err := d.ExportCSV(t.Context(), &buf, store.ExportOptions{}); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// TestMergeProperties merges random inputs in two orders, the first input
// sometimes an existing dst, and checks each against the documented rule;
// then that merging again changes nothing, and that when the inputs agree
// (shards of one deterministic grid) the order does not matter. Its seeds
// cover each of (dst an input or new) x (inputs agree or not).
func TestMergeProperties(t *testing.T) {
	for seed := range uint64(4) {
		rng := rand.New(rand.NewPCG(seed, 4))
		inputs := randomInputs(rng, seed%2 == 1)
		dstIsInput := seed%3 == 0
		dir := t.TempDir()
		paths := make([]string, len(inputs))
		for k := range inputs {
			paths[k] = filepath.Join(dir, fmt.Sprintf("in%d.db", k))
			writeInput(t, paths[k], fmt.Sprint("input ", k), inputs[k])
		}
		order := make([]int, len(inputs))
		for k := range order {
			order[k] = k
		}
		reversed := slices.Clone(order)
		slices.Reverse(reversed)
		var exports [][]byte
		for i, ord := range [][]int{order, reversed} {
			var dst string
			var srcs []string
			if i == 0 && dstIsInput {
				// The first input is dst itself: its own points are met first.
				dst, srcs = paths[ord[0]], nil
				for _, k := range ord[1:] {
					srcs = append(srcs, paths[k])
				}
				// Merge replaces dst: the second order reads a copy.
				paths[ord[0]] = filepath.Join(dir, "copy.db")
				writeInput(t, paths[ord[0]], fmt.Sprint("input ", ord[0]), inputs[ord[0]])
			} else {
				dst = filepath.Join(dir, fmt.Sprintf("out%d.db", i))
				for _, k := range ord {
					srcs = append(srcs, paths[k])
				}
			}
			if err := store.Merge(t.Context(), dst, srcs, false); err != nil {
				t.Fatalf("seed %d: %v", seed, err)
			}
			want, from := expectMerge(inputs, ord)
			checkMerged(t, seed, dst, want, from)
			export := exportOf(t, dst)
			exports = append(exports, export)

			if i > 0 {
				continue
			}
			// Idempotent: merging the same sources again changes nothing.
			if err := store.Merge(t.Context(), dst, srcs, false); err != nil {
				t.Fatal(err)
			}
			checkMerged(t, seed, dst, want, from)
			if again := exportOf(t, dst); !bytes.Equal(again, export) {
				t.Errorf("seed %d: merging again changed the export:\n%s\nwas\n%s", seed, again, export)
			}
		}
		if seed%2 == 1 && !bytes.Equal(exports[0], exports[1]) {
			t.Errorf("seed %d: merging agreeing inputs in reverse order exports\n%s\nnot\n%s", seed, exports[1], exports[0])
		}
	}
}

// TestMergeRefusesAModelVersionOfTheSameGrid checks that inputs holding
// results of two model versions are refused even when they hold one grid
// ID, whether a point or the grid record carries the other version, and a
// grid of another ID with the same model version too; dst is left as it
// was, and force merges them.
func TestMergeRefusesAModelVersionOfTheSameGrid(t *testing.T) {
	for _, tc := range []struct {
		name          string
		grid          store.GridRecord
		pointVersion  string
		wantInMessage string
	}{
		{"point of another model", testGrid, "m2", "2 model versions (m1, m2)"},
		{"grid record of another model", store.GridRecord{ID: testGrid.ID, Name: testGrid.Name, Scenario: testGrid.Scenario,
			ModelVersion: "m2", Canonical: testGrid.Canonical}, "m1", "2 model versions (m1, m2)"},
		{"another grid", store.GridRecord{ID: "grid-2", Name: "other", Scenario: testGrid.Scenario,
			ModelVersion: "m1", Canonical: "name = \"other\"\n"}, "m1", "2 grids (grid-1, grid-2)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			a, b, dst := filepath.Join(dir, "a.db"), filepath.Join(dir, "b.db"), filepath.Join(dir, "all.db")
			shard(t, a, doneResult("p1", testGrid.ID))
			shard(t, dst, doneResult("p0", testGrid.ID))
			before := readFile(t, dst)
			d, err := store.Open(b)
			if err != nil {
				t.Fatal(err)
			}
			r := doneResult("p2", tc.grid.ID)
			r.ModelVersion = tc.pointVersion
			if err := d.SaveGrid(t.Context(), tc.grid); err != nil {
				t.Fatal(err)
			}
			if err := d.SaveResults(t.Context(), []store.Result{r}); err != nil {
				t.Fatal(err)
			}
			d.Close()
			err = store.Merge(t.Context(), dst, []string{a, b}, false)
			if !errors.Is(err, store.ErrMismatch) || !bytes.Contains([]byte(err.Error()), []byte(tc.wantInMessage)) {
				t.Fatalf("Merge = %v, want ErrMismatch naming %s", err, tc.wantInMessage)
			}
			if !bytes.Equal(readFile(t, dst), before) {
				t.Error("a refused merge changed dst")
			}
			if err := store.Merge(t.Context(), dst, []string{a, b}, true); err != nil {
				t.Fatalf("forced merge: %v", err)
			}
			if results, _, _ := snapshot(t, dst); len(results) != 3 {
				t.Errorf("forced merge holds %d points, want 3", len(results))
			}
		})
	}
}
