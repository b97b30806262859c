package sweep_test

import (
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/ccsweep/ccsweep/sweep"
)

// drbGrid is a short load curve of examples/drb-torus.toml's transpose:
// off, ib and drb on the 8x8 torus with 4 LIDs per host.
const drbGrid = `
name     = "drb"
scenario = "../examples/scenarios/drb-torus-transpose.toml"
phase    = "1ms"
sample   = "100us"

[sweep]
cc   = ["off", "ib", "drb"]
load = [0.1, 0.6]
`

// TestDRBGridRunsLikeAnyOther: the DRB grid gives identical exports at -j 1
// and -j 2, paths_open_mean only where drb runs, and the throughput DRB
// exists for: at load 0.6 transpose saturates dimension-order routing on
// one path (off, ib) while drb, opening the other dimension order, carries
// nearly all of it (docs/schemes.md, "DRB").
func TestDRBGridRunsLikeAnyOther(t *testing.T) {
	g := parse(t, drbGrid)
	var exports []string
	for _, workers := range []int{1, 2} {
		db := openDB(t, "drb"+strconv.Itoa(workers)+".db")
		if s := runGrid(t, g, db, sweep.Options{Workers: workers}); s.Ran != 6 || s.Failed != 0 {
			t.Fatalf("-j %d: ran %d, failed %d; want 6, 0", workers, s.Ran, s.Failed)
		}
		exports = append(exports, export(t, db))
	}
	if exports[0] != exports[1] {
		t.Fatalf("-j 1 and -j 2 differ:\n%s\n%s", exports[0], exports[1])
	}
	rows := strings.Split(strings.TrimSpace(exports[0]), "\n")
	head := strings.Split(rows[0], ",")
	col := func(name string) int {
		i := slices.Index(head, name)
		if i < 0 {
			t.Fatalf("export header %v has no %s", head, name)
		}
		return i
	}
	cc, load, acc, open := col("cc"), col("load"), col("accepted_load"), col("paths_open_mean")
	accepted := map[string]float64{}
	for _, row := range rows[1:] {
		f := strings.Split(row, ",")
		if (f[open] != "") != (f[cc] == "drb") {
			t.Errorf("cc %s: paths_open_mean %q, want a value for drb only", f[cc], f[open])
		}
		if f[load] == "0.6" {
			accepted[f[cc]], _ = strconv.ParseFloat(f[acc], 64)
		}
	}
	if !(accepted["drb"] > 1.5*accepted["on"] && accepted["drb"] > 1.5*accepted["off"]) {
		t.Errorf("accepted load at 0.6 offered: %v; want drb well above off and ib", accepted)
	}
}
