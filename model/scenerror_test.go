package model_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/ccsweep/ccsweep/model"
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
		{"wrapped", fmt.Errorf("%w: routing dor: set vls", model.ErrBadScenario), "routing dor: set vls", true},
		{"wrapped twice", fmt.Errorf("build: %w", fmt.Errorf("%w: lmc 9: want 0 to 7", model.ErrBadScenario)), "build: bad scenario: lmc 9: want 0 to 7", true},
		{"named scenario", fmt.Errorf("%w s@1: traffic bg: too few hosts", model.ErrBadScenario), "bad scenario s@1: traffic bg: too few hosts", true},
		{"lfts error", &model.LFTsError{Name: "t.dump", Reason: "no route"}, "routing lfts t.dump: no route", true},
		{"the text without the type", errors.New("bad scenario: routing dor: set vls"), "", false},
		{"another error", fmt.Errorf("%w: mtu", model.ErrUnknownParam), "", false},
		{"nil", nil, "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			reason, ok := model.ScenarioReason(tt.err)
			if reason != tt.reason || ok != tt.ok {
				t.Fatalf("ScenarioReason(%v) = %q, %v; want %q, %v", tt.err, reason, ok, tt.reason, tt.ok)
			}
		})
	}
}
