package model_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/ccsweep/ccsweep/model"
	"github.com/ccsweep/ccsweep/model/fabric"
	"github.com/ccsweep/ccsweep/model/params"
	"github.com/ccsweep/ccsweep/model/workload"
)

// TestScenarioReasonGoesByTypeNotText: what decides is whether the error
// wraps ErrBadScenario, not whether its text looks like one.
func TestScenarioReasonGoesByTypeNotText(t *testing.T) {
	tests := []struct {
		name   string
		err    error
		reason string
		ok     bool
	}{
		{"wrapped", fmt.Errorf("%w: routing dor: set vls", fabric.ErrBadScenario), "routing dor: set vls", true},
		{"wrapped twice", fmt.Errorf("build: %w", fmt.Errorf("%w: lmc 9: want 0 to 7", fabric.ErrBadScenario)), "build: bad scenario: lmc 9: want 0 to 7", true},
		{"named scenario", fmt.Errorf("%w s@1: traffic bg: too few hosts", fabric.ErrBadScenario), "bad scenario s@1: traffic bg: too few hosts", true},
		{"lfts error", &fabric.LFTsError{Name: "t.dump", Reason: "no route"}, "routing lfts t.dump: no route", true},
		{"the text without the type", errors.New("bad scenario: routing dor: set vls"), "", false},
		{"another error", fmt.Errorf("%w: mtu", params.ErrUnknownParam), "", false},
		{"nil", nil, "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			reason, ok := workload.ScenarioReason(tt.err)
			if reason != tt.reason || ok != tt.ok {
				t.Fatalf("ScenarioReason(%v) = %q, %v; want %q, %v", tt.err, reason, ok, tt.reason, tt.ok)
			}
		})
	}
}

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
