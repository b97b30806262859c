//go:build unix

package model_test

import "syscall"

// cpuSeconds returns the process's CPU time so far (user and system), which
// waiting for a loaded machine's cores does not inflate as it does wall time.
func cpuSeconds() float64 {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return float64(ru.Utime.Nano()+ru.Stime.Nano()) / 1e9
}
