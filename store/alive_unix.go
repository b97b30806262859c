//go:build unix

package store

import (
	"errors"
	"syscall"
)

// processAlive reports whether a process with this ID exists on this host.
// A process of another user exists too (EPERM).
func processAlive(pid int) bool {
	if pid <= 0 {
		return false
	}
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}
