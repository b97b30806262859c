package main

import (
	"strings"
	"testing"
)

// The scenario list shows a scenario's first eight flows and counts the rest.
func TestScenariosListElidesManyFlows(t *testing.T) {
	out, _, code := ccsweep(t, "scenarios")
	if code != 0 || !strings.Contains(out, "    ... and 504 more flows\n") {
		t.Fatalf("exit %d\n%s", code, out)
	}
	if strings.Contains(out, " C1.9 ") {
		t.Error("listed a ninth contributor")
	}
}
