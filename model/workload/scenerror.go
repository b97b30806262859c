package workload

import (
	"errors"
	"strings"

	"github.com/ccsweep/ccsweep/model/fabric"
)

// ScenarioReason returns what err says is wrong with a scenario, for a
// reader that reports it at a line of the scenario's file: when err wraps
// ErrBadScenario (as the errors of NewScenario's checks and NewNetwork's
// build do, and *FlowHostError, *TrafficError, *AppError, *LFTsError and
// *MemoryError), its message without the leading "bad scenario: " that
// names the class; ok is false for any other error, whatever its text.
func ScenarioReason(err error) (reason string, ok bool) {
	if !errors.Is(err, fabric.ErrBadScenario) {
		return "", false
	}
	return strings.TrimPrefix(err.Error(), fabric.ErrBadScenario.Error()+": "), true
}
