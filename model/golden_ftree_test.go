package model_test

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/ccsweep/ccsweep/model"
	"github.com/ccsweep/ccsweep/model/fabric"
)

// TestGoldenWithCompactFTree runs every golden case routed by ftree with
// its compact forwarding (fabric.FTreeRouter), which runs keep only on
// fabrics of more than fabric.FTreeTablesUpTo entries, and wants each
// golden file byte for byte: a representation, not a behaviour. The cases
// cover a fat tree with lmc 2 (DRB's paths among them), a Clos with lmc 1
// and closed-loop apps.
func TestGoldenWithCompactFTree(t *testing.T) {
	defer func(n int) { fabric.FTreeTablesUpTo = n }(fabric.FTreeTablesUpTo)
	fabric.FTreeTablesUpTo = 0
	topos := goldenTopos(t)
	ran := 0
	for _, c := range goldenCases() {
		tp := topos[c.topo]
		if tp.sc.Routing != "ftree" {
			continue
		}
		ran++
		t.Run(c.name, func(t *testing.T) {
			r, err := model.Run(tp.sc, goldenConfig(t, c, tp), goldenSeed)
			if err != nil {
				t.Fatal(err)
			}
			want, err := os.ReadFile(filepath.Join(goldenDir, c.name+".txt"))
			if err != nil {
				t.Fatal(err)
			}
			if got := goldenText(c, tp, r); !bytes.Equal(got, want) {
				t.Errorf("%s.txt differs with the compact forwarding (-want +got)\n%s", c.name, lineDiff(string(want), string(got)))
			}
		})
	}
	if ran < 10 {
		t.Fatalf("%d golden cases routed by ftree; want at least 10", ran)
	}
}
