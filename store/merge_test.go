package store_test

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/ccsweep/ccsweep/store"
)

// shard creates a database at path holding testGrid, one run, and the
// given results, which are all stored with that run.
func shard(t *testing.T, path string, rs ...store.Result) {
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
	runID, err := d.BeginRun(ctx, store.Run{Version: "v1", ModelVersion: "m1", Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	for i := range rs {
		rs[i].RunID = runID
	}
	if err := d.SaveResults(ctx, rs); err != nil {
		t.Fatal(err)
	}
}

func failedResult(id string) store.Result {
	r := doneResult(id, testGrid.ID)
	r.Status, r.Err, r.Metrics = store.StatusFailed, "failed in "+id, nil
	return r
}

// snapshot returns what a database holds, for comparing merges.
func snapshot(t *testing.T, path string) (results []store.Result, runs []store.Run, export []byte) {
	t.Helper()
	d, err := store.OpenReadOnly(path)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	if results, err = d.Results(t.Context(), store.Filter{}); err != nil {
		t.Fatal(err)
	}
	if runs, err = d.Runs(t.Context()); err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := d.ExportCSV(t.Context(), &buf, store.ExportOptions{}); err != nil {
		t.Fatal(err)
	}
	integrityCheck(t, d)
	return results, runs, buf.Bytes()
}

func TestMerge(t *testing.T) {
	dir := t.TempDir()
	a, b, dst := filepath.Join(dir, "a.db"), filepath.Join(dir, "b.db"), filepath.Join(dir, "all.db")
	withSeries := doneResult("p2", testGrid.ID)
	withSeries.Series = []store.Series{{Flow: "F1", Role: "victim", SampleSeconds: 1e-3, Gbps: []float64{13, 12.5}}}
	shard(t, a, doneResult("p1", testGrid.ID), failedResult("p2"), failedResult("p4"))
	shard(t, b, doneResult("p1", testGrid.ID), withSeries, doneResult("p3", testGrid.ID), failedResult("p4"))

	if err := store.Merge(t.Context(), dst, []string{a, b}, false); err != nil {
		t.Fatal(err)
	}
	checkNoMergeLeftovers(t, dir, "all.db")
	results, runs, export := snapshot(t, dst)
	status := make(map[string]string)
	for _, r := range results {
		status[r.ID] = r.Status + " " + r.Err
	}
	want := map[string]string{"p1": "done ", "p2": "done ", "p3": "done ", "p4": "failed failed in p4"}
	if len(status) != len(want) {
		t.Errorf("merged statuses %v, want %v", status, want)
	}
	for id, s := range want {
		if status[id] != s {
			t.Errorf("point %s: %q, want %q", id, status[id], s)
		}
	}
	if len(runs) != 2 {
		t.Fatalf("merged %d runs, want 2", len(runs))
	}
	// Every point's run is the merged copy of the shard's run that made it.
	d, err := store.OpenReadOnly(dst)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	for _, r := range results {
		if r.RunID != runs[0].ID && r.RunID != runs[1].ID {
			t.Errorf("point %s has run %d, not a merged run", r.ID, r.RunID)
		}
	}
	series, err := d.Series(t.Context(), "p2")
	if err != nil || len(series) != 1 || !slices.Equal(series[0].Gbps, []float64{13, 12.5}) {
		t.Errorf("series of p2 = %+v, %v; want b's", series, err)
	}
	d.Close()

	// Merging again, or merging dst into itself, changes nothing.
	for _, tc := range []struct {
		name string
		srcs []string
	}{{"again", []string{a, b}}, {"into itself", []string{b, a, dst}}} {
		t.Run(tc.name, func(t *testing.T) {
			if err := store.Merge(t.Context(), dst, tc.srcs, false); err != nil {
				t.Fatal(err)
			}
			checkNoMergeLeftovers(t, dir, "all.db")
			_, runs2, export2 := snapshot(t, dst)
			if len(runs2) != len(runs) || !bytes.Equal(export2, export) {
				t.Errorf("merging %v again changed dst: %d runs, export\n%s\nwas\n%s", tc.srcs, len(runs2), export2, export)
			}
		})
	}
}

func TestMergeRefusesMismatch(t *testing.T) {
	dir := t.TempDir()
	a, b, dst := filepath.Join(dir, "a.db"), filepath.Join(dir, "b.db"), filepath.Join(dir, "all.db")
	shard(t, a, doneResult("p1", testGrid.ID))
	shard(t, dst, doneResult("p0", testGrid.ID))
	before := readFile(t, dst)

	d, err := store.Open(b)
	if err != nil {
		t.Fatal(err)
	}
	other := testGrid
	other.ID, other.ModelVersion = "grid-m2", "m2"
	r := doneResult("p2", other.ID)
	r.ModelVersion = "m2"
	if err := d.SaveGrid(t.Context(), other); err != nil {
		t.Fatal(err)
	}
	if err := d.SaveResults(t.Context(), []store.Result{r}); err != nil {
		t.Fatal(err)
	}
	d.Close()

	err = store.Merge(t.Context(), dst, []string{a, b}, false)
	if !errors.Is(err, store.ErrMismatch) {
		t.Fatalf("Merge of two model versions = %v, want ErrMismatch", err)
	}
	if !bytes.Equal(readFile(t, dst), before) {
		t.Error("a refused merge changed dst")
	}
	if err := store.Merge(t.Context(), dst, []string{a, b}, true); err != nil {
		t.Fatalf("forced merge: %v", err)
	}
	results, _, _ := snapshot(t, dst)
	if len(results) != 3 {
		t.Errorf("forced merge holds %d points, want 3", len(results))
	}
}

func TestMergeBadSourceLeavesDst(t *testing.T) {
	dir := t.TempDir()
	a, bad, dst := filepath.Join(dir, "a.db"), filepath.Join(dir, "bad.db"), filepath.Join(dir, "all.db")
	shard(t, a, doneResult("p1", testGrid.ID))
	writeFile(t, bad, bytes.Repeat([]byte("garbage "), 1000))
	err := store.Merge(t.Context(), dst, []string{a, bad}, false)
	if !errors.Is(err, store.ErrNotDatabase) {
		t.Errorf("Merge with a garbage source = %v, want ErrNotDatabase", err)
	}
	if err := store.Merge(t.Context(), dst, []string{a, filepath.Join(dir, "missing.db")}, false); err == nil {
		t.Error("Merge with a missing source succeeded")
	}
	if _, err := os.Stat(dst); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("failed merges created %s", dst)
	}
	checkNoMergeLeftovers(t, dir, "")
}

// checkNoMergeLeftovers fails if dir holds a temporary file of Merge or dst's
// -wal or -shm file. (A source's may remain: read-only connections to a WAL
// database create them and cannot delete them.)
func checkNoMergeLeftovers(t *testing.T, dir, dst string) {
	t.Helper()
	for _, name := range dirNames(t, dir) {
		if strings.Contains(name, ".merge-") || (dst != "" && name != dst && strings.HasPrefix(name, dst)) {
			t.Errorf("merge left %s behind", name)
		}
	}
}

func TestMergeRefusesDstInUse(t *testing.T) {
	dir := t.TempDir()
	a, dst := filepath.Join(dir, "a.db"), filepath.Join(dir, "all.db")
	shard(t, a, doneResult("p1", testGrid.ID))
	shard(t, dst, doneResult("p0", testGrid.ID))
	d, err := store.Open(dst)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	if err := store.Merge(t.Context(), dst, []string{a}, false); err == nil || !strings.Contains(err.Error(), "in use") {
		t.Errorf("Merge into an open database = %v, want an in-use error", err)
	}
	if done, _ := counts(t, d); done != 1 {
		t.Errorf("dst holds %d done points after a refused merge, want 1", done)
	}
	checkNoMergeLeftovers(t, dir, "")
}

func TestMergeRemovesLeftoversOfKilledMerges(t *testing.T) {
	dir := t.TempDir()
	src, dst := filepath.Join(dir, "a.db"), filepath.Join(dir, "out.db")
	shard(t, src, doneResult("p1", testGrid.ID))
	host, err := os.Hostname()
	if err != nil {
		t.Fatal(err)
	}
	dead := exec.Command(os.Args[0], "-test.run=^$")
	if err := dead.Run(); err != nil {
		t.Fatal(err)
	}
	deadPID := strconv.Itoa(dead.Process.Pid)
	for _, name := range []string{
		"out.db.merge-" + host + "-" + deadPID, // left by a merge killed mid-way
		"out.db.merge-" + host + "-" + deadPID + "-wal",
		"out.db.merge-" + host + "-1",            // a live process's merge (PID 1)
		"out.db.merge-other.host-" + deadPID,     // another host's: its PIDs mean nothing here
		"other.db.merge-" + host + "-" + deadPID, // another database's
	} {
		writeFile(t, filepath.Join(dir, name), []byte("partial"))
	}
	if err := store.Merge(t.Context(), dst, []string{src}, false); err != nil {
		t.Fatal(err)
	}
	want := []string{"a.db", "other.db.merge-" + host + "-" + deadPID, "out.db",
		"out.db.merge-" + host + "-1", "out.db.merge-other.host-" + deadPID}
	slices.Sort(want)
	if got := dirNames(t, dir); !slices.Equal(got, want) {
		t.Errorf("after the merge the directory holds %v, want %v", got, want)
	}
}
