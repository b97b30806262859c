package model

import (
	"testing"

	"github.com/ccsweep/ccsweep/engine"
	"github.com/ccsweep/ccsweep/model/params"
)

// TestCCTShapesAgainstHandComputedEntries checks each CCT shape's entries
// against values worked out by hand from its definition, in picoseconds
// rounded down.
func TestCCTShapesAgainstHandComputedEntries(t *testing.T) {
	ps := engine.Picosecond
	cases := []struct {
		name string
		cc   func(*params.CCConfig)
		size int
		want map[int]engine.Time // index -> entry
	}{
		{"quadratic, the testbed's d = 106", func(c *params.CCConfig) {}, 128, map[int]engine.Time{
			0:   0,
			1:   622 * ps,      // 7e6 ps / 106² = 622.99
			64:  2551797 * ps,  // 7e6 · 64² / 106² = 2551797.8
			106: 7000000 * ps,  // exactly 7 µs at i = d
			127: 10048326 * ps, // 7e6 · 127² / 106² = 10048326.8
		}},
		{"quadratic, d = 95", func(c *params.CCConfig) { c.CCTDenominator = 95 }, 128, map[int]engine.Time{
			95: 7 * engine.Microsecond,
		}},
		{"linear to 8.3us at ccti_limit 127", func(c *params.CCConfig) { c.CCT, c.CCTMaxDelay = "linear", 8300*engine.Nanosecond }, 128,
			map[int]engine.Time{
				0:   0,
				1:   65354 * ps,   // 8.3e6 / 127 = 65354.3
				64:  4182677 * ps, // 8.3e6 · 64 / 127 = 4182677.2
				127: 8300000 * ps, // the largest delay at the limit
			}},
		{"linear, ccti_limit 200 grows the table", func(c *params.CCConfig) {
			c.CCT, c.CCTMaxDelay, c.CCTILimit = "linear", 8300*engine.Nanosecond, 200
		}, 201, map[int]engine.Time{1: 41500 * ps, 100: 4150000 * ps, 200: 8300000 * ps}},
		{"linear, ccti_limit 0 never throttles", func(c *params.CCConfig) {
			c.CCT, c.CCTMaxDelay, c.CCTILimit = "linear", 8300*engine.Nanosecond, 0
		}, 128, map[int]engine.Time{0: 0, 1: 0, 127: 0}},
		{"table, the last entry repeats", func(c *params.CCConfig) { c.CCT = "table:0s,1us,2.5us" }, 128, map[int]engine.Time{
			0: 0, 1: engine.Microsecond, 2: 2500 * engine.Nanosecond, 3: 2500 * engine.Nanosecond, 127: 2500 * engine.Nanosecond,
		}},
		{"table of one entry", func(c *params.CCConfig) { c.CCT = "table:3us" }, 128, map[int]engine.Time{
			0: 3 * engine.Microsecond, 127: 3 * engine.Microsecond,
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := params.DefaultCC()
			tc.cc(&c)
			cct := buildCCT(c)
			if len(cct) != tc.size {
				t.Fatalf("%d entries, want %d", len(cct), tc.size)
			}
			for i, want := range tc.want {
				if cct[i] != want {
					t.Errorf("cct[%d] = %v, want %v", i, cct[i], want)
				}
			}
			for i := 1; i < len(cct); i++ {
				if cct[i] < cct[i-1] {
					t.Errorf("cct[%d] = %v below cct[%d] = %v", i, cct[i], i-1, cct[i-1])
				}
			}
		})
	}
}
