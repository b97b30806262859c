package main

import (
	"os"
	"testing"
)

// TestMain lets the test binary act as ccsweep itself when CCSWEEP_AS_MAIN is
// set, so tests can run, kill and race real ccsweep processes.
func TestMain(m *testing.M) {
	if os.Getenv("CCSWEEP_AS_MAIN") == "1" {
		os.Exit(runProcess(append([]string{"ccsweep"}, os.Args[1:]...)))
	}
	os.Exit(m.Run())
}
