package main

import (
	"bufio"
	"os"
	"strconv"
	"strings"

	"github.com/ccsweep/ccsweep/model"
)

// networkShare is the part of what the process may use that one network may
// take: the garbage collector needs as much again for headroom, and the
// runtime, the series and the database their share.
const networkShare = 2

// setMemoryBudget sets model.MemoryBudget from the least of what the
// process may use: what its address-space limit (ulimit -v) leaves, its
// cgroup's memory limit and the machine's memory. Nothing known leaves it
// unlimited.
func setMemoryBudget() {
	limit := int64(0)
	// The Go runtime reserves address space it never touches (over 1 GB at
	// start on amd64): under ulimit -v, only what is left counts.
	as := addressSpaceLimit()
	if as > 0 {
		as = max(as-procStatus("VmSize:"), 1)
	}
	for _, l := range []int64{as, cgroupLimit(), procMeminfo("MemTotal:")} {
		if l > 0 && (limit == 0 || l < limit) {
			limit = l
		}
	}
	model.MemoryBudget = limit / networkShare
}

// cgroupLimit reads the memory limit of the process's cgroup (v2, then v1),
// or 0 for none.
func cgroupLimit() int64 {
	return cgroupLimitOf("/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory/memory.limit_in_bytes")
}

// cgroupLimitOf reads the first limit set in files: a v2 "max" or a v1
// limit of 2^60 bytes or more (v1's "no limit" is 2^63 - 4096) sets none.
func cgroupLimitOf(files ...string) int64 {
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		if v, err := strconv.ParseInt(strings.TrimSpace(string(b)), 10, 64); err == nil && v > 0 && v < 1<<60 {
			return v
		}
	}
	return 0
}

// procMeminfo reads a field of /proc/meminfo in bytes, or 0.
func procMeminfo(field string) int64 { return procField("/proc/meminfo", field) }

// procStatus reads a field of /proc/self/status in bytes, or 0.
func procStatus(field string) int64 { return procField("/proc/self/status", field) }

// procField reads the "FIELD  N kB" line of a /proc file in bytes, or 0.
func procField(file, field string) int64 {
	f, err := os.Open(file)
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), field); ok {
			kb, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")), 10, 64)
			if err == nil {
				return kb << 10
			}
		}
	}
	return 0
}

// shareMemory divides the network budget among jobs simulations at once: a
// sweep's workers each build their own network, and a point whose network
// would not fit its share is recorded as failed, saying so (fewer jobs
// fit bigger networks).
func shareMemory(jobs int) {
	if model.MemoryBudget > 0 && jobs > 1 {
		model.MemoryBudget /= int64(jobs)
	}
}
