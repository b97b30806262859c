package model_test

import (
	"errors"
	"testing"

	"github.com/ccsweep/ccsweep/model"
	"github.com/ccsweep/ccsweep/model/fabric"
	"github.com/ccsweep/ccsweep/model/workload"
)

// TestTrafficErrorNamesItsTraffic: a traffic that does not fit the built
// topology (bitreverse on the 9 hosts of a fattree of k 3, the scenario's
// second traffic) is a *TrafficError naming that traffic by index and the
// field at fault, wrapping ErrBadScenario, so that a reader can place it
// at that traffic's own line.
func TestTrafficErrorNamesItsTraffic(t *testing.T) {
	traffic := []workload.TrafficSpec{
		{Name: "u", Pattern: "uniform", Arrival: "saturate"},
		{Name: "b", Pattern: "bitreverse", Arrival: "saturate"},
	}
	sc, err := workload.NewScenario(workload.ScenarioSpec{Name: "misfit", Phases: 1, Topology: "fattree",
		Topo: fabric.TopoParams{K: 3, Levels: 2}, Traffic: traffic, Source: []byte("misfit")})
	if err != nil {
		t.Fatal(err)
	}
	_, err = model.NewNetwork(sc, sc.Config(), 1)
	var te *model.TrafficError
	if !errors.As(err, &te) || !errors.Is(err, fabric.ErrBadScenario) {
		t.Fatalf("error %v (%T), want a *model.TrafficError wrapping ErrBadScenario", err, err)
	}
	if te.Traffic != 1 || te.Name != "b" || te.Field != "pattern" || te.Scenario != sc.Name ||
		te.Msg != "bitreverse needs a power of two hosts, not 9" {
		t.Fatalf("%+v, want traffic 1 (b) of %s, field pattern, the reason alone", *te, sc.Name)
	}
	if reason, ok := workload.ScenarioReason(err); !ok || reason != "bad scenario "+sc.Name+": traffic b: pattern: bitreverse needs a power of two hosts, not 9" {
		t.Fatalf("ScenarioReason: %q, %v", reason, ok)
	}
}
