//go:build unix

package main

import "syscall"

// addressSpaceLimit is the soft RLIMIT_AS (ulimit -v) in bytes, or 0 for
// none (RLIM_INFINITY is all ones).
func addressSpaceLimit() int64 {
	var rl syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_AS, &rl); err != nil || rl.Cur > 1<<62 {
		return 0
	}
	return int64(rl.Cur)
}
