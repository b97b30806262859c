package model_test

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/ccsweep/ccsweep/model"
	"github.com/ccsweep/ccsweep/model/fabric"
	"github.com/ccsweep/ccsweep/model/params"
	"github.com/ccsweep/ccsweep/model/workload"
)

// TestMixedRateRunRepeats runs a fabric whose senders have different link
// rates several times: every run must give the same Result to the last
// bit. Sums over the senders once followed a map's order, which changes
// from run to run, and sender_gbps, offered_load and accepted_load
// differed in their last bits between runs of the same seed.
func TestMixedRateRunRepeats(t *testing.T) {
	fattree, err := os.ReadFile(filepath.Join("fabric", "testdata", "ibnetdiscover", "fattree.txt"))
	if err != nil {
		t.Fatal(err)
	}
	sc := &workload.Scenario{Name: "mixed-rates", Phases: 1, Routing: "updn",
		Build: func(*params.Config) (*fabric.Topology, error) {
			return fabric.ParseIBNetDiscover("fattree.txt", fattree)
		},
		// Every host sends: QDR, FDR and the rest, a few of each.
		Traffic: []workload.TrafficSpec{{Name: "bg", Pattern: "uniform", Arrival: "poisson", Load: 0.05,
			MessageSize: 2048, SizeDist: "fixed", Role: workload.Background}}}
	cfg := sc.Config()
	for _, kv := range [][2]string{{"phase", "1ms"}, {"sample", "100us"}, {"host_io_gbps", "32"}} {
		if err := sc.Set(&cfg, kv[0], kv[1]); err != nil {
			t.Fatal(err)
		}
	}
	first, err := model.Run(sc, cfg, 3)
	if err != nil {
		t.Fatal(err)
	}
	want := fmt.Sprintf("%v", first.Stats)
	for i := range 12 {
		r, err := model.Run(sc, cfg, 3)
		if err != nil {
			t.Fatal(err)
		}
		if got := fmt.Sprintf("%v", r.Stats); got != want {
			t.Fatalf("run %d of the same seed: stats\n%s\nfirst run\n%s", i+2, got, want)
		}
	}
}
