package params

import (
	"math"
	"testing"
)

// TestMutSantosRMaxIsWhatAHostInjects checks santos' R_max when
// santos.r_max is 0: the lower of the host's payload rate and its link's
// payload rate (the data rate times MTU payload over MTU plus header
// bytes: 16 · 2048/2074 = 15.7994... Gbit/s on the testbed's links). With
// host_io_gbps 0 the host moves what its link carries, so the link's
// payload rate is R_max; with host_io_gbps 13 (the default) 13 is.
// Kills santos.go's `float64(c.MTU)/float64(c.MTU+c.HeaderBytes)` with `/`
// to `*` or `+` to `-` (R_max the host's data rate or more).
func TestMutSantosRMaxIsWhatAHostInjects(t *testing.T) {
	for _, c := range []struct {
		hostIO float64
		want   float64
	}{{0, 16.0 * 2048 / 2074}, {13, 13}, {15.9, 16.0 * 2048 / 2074}} {
		cfg := DefaultConfig()
		cfg.HostIOGbps = c.hostIO
		if got := cfg.Santos.RMax(&cfg); math.Abs(got-c.want) > 1e-9 {
			t.Errorf("host_io_gbps %v: R_max %v, want %v", c.hostIO, got, c.want)
		}
	}
	cfg := DefaultConfig()
	cfg.Santos.RMaxGbps = 9
	if got := cfg.Santos.RMax(&cfg); got != 9 {
		t.Errorf("santos.r_max 9: R_max %v", got)
	}
}
