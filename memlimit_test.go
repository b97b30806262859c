package main

import (
	"os"
	"path/filepath"
	"strconv"
	"testing"
)

// A cgroup limit is read from the first file that sets one; "max" and
// v1's "no limit" (2^63 - 4096) set none, and neither does 2^60.
func TestCgroupLimitOf(t *testing.T) {
	dir := t.TempDir()
	file := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	v2max, v1none := file("v2max", "max\n"), file("v1none", "9223372036854771712\n")
	edge, set := file("edge", strconv.FormatInt(1<<60, 10)+"\n"), file("set", "8589934592\n")
	for _, tt := range []struct {
		files []string
		want  int64
	}{
		{[]string{v2max, set}, 8589934592},
		{[]string{filepath.Join(dir, "absent"), set}, 8589934592},
		{[]string{v2max, v1none}, 0},
		{[]string{edge}, 0},
		{[]string{file("zero", "0\n"), set}, 8589934592},
	} {
		if got := cgroupLimitOf(tt.files...); got != tt.want {
			t.Errorf("cgroupLimitOf(%v) = %d, want %d", tt.files, got, tt.want)
		}
	}
}
