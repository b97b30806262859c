package model

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/ccsweep/ccsweep/engine"
	"github.com/ccsweep/ccsweep/model/fabric"
	"github.com/ccsweep/ccsweep/model/workload"
)

// A scenario holds at most 4095 apps (addApps' bound): 4096 are refused
// with their count, 4095 pass that check.
// Kills app.go's `len(specs) >= 1<<12` turned into `>`.
func TestMutAppCountBound(t *testing.T) {
	apps := func(n int) []workload.AppSpec {
		out := make([]workload.AppSpec, n)
		for i := range out {
			a := workload.DefaultApp(fmt.Sprintf("pp%d", i), "pingpong")
			a.Hosts, a.Iterations = []string{"H1", "H2"}, 1
			out[i] = a
		}
		return out
	}
	_, err := NewNetwork(starScenario("many", 2, apps(1<<12)...), appConfig(engine.Millisecond), 1)
	if !errors.Is(err, fabric.ErrBadScenario) || !strings.Contains(err.Error(), "4096 apps; at most 4095") {
		t.Fatalf("4096 apps: err = %v, want the bad scenario's count, at most 4095", err)
	}
	if _, err := NewNetwork(starScenario("many", 2, apps(1<<12-1)...), appConfig(engine.Millisecond), 1); err != nil && strings.Contains(err.Error(), "at most 4095") {
		t.Fatalf("4095 apps refused by the count: %v", err)
	}
}
