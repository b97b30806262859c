package grids_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/ccsweep/ccsweep/grids"
)

// TestInlineSweepTableKeepsFileOrder checks that axes written as an inline
// table (sweep = { ... }) are crossed in file order, the last varying
// fastest (grids' package doc, "dimensions are crossed in file order"),
// as they are in a [sweep] table, not in the keys' alphabetical order.
func TestInlineSweepTableKeepsFileOrder(t *testing.T) {
	const src = "name = \"g\"\nscenario = \"testbed-s1\"\nsweep = { marking_rate = [1, 2], host_io_gbps = [8, 16] }\n"
	g, err := grids.Parse("g.toml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, p := range g.Points() {
		m, _ := p.Value("marking_rate")
		h, _ := p.Value("host_io_gbps")
		got = append(got, m+"/"+h)
	}
	if want := []string{"1/8", "1/16", "2/8", "2/16"}; !slices.Equal(got, want) {
		t.Errorf("points (marking_rate/host_io_gbps) %v, want %v: marking_rate first, host_io_gbps fastest", got, want)
	}
}

// TestArrayElementProblemsNameTheirLine checks that a bad value of an
// array written over several lines is reported at its own line, for each
// element, in [sweep] and in an inline table's array alike.
func TestArrayElementProblemsNameTheirLine(t *testing.T) {
	for _, tt := range []struct{ body, want string }{
		{"[sweep]\nmarking_rate = [\n  1,\n  2,\n  -5,\n]\n", "g.toml:7: sweep.marking_rate"},
		{"[sweep]\nmarking_rate = [\n  1,\n  -5,\n  2,\n]\n", "g.toml:6: sweep.marking_rate"},
		{"[sweep]\nmarking_rate = [\n  -5,\n  1,\n]\n", "g.toml:5: sweep.marking_rate"},
		{"sweep = { marking_rate = [\n  1,\n  -5,\n] }\n", "g.toml:5: sweep.marking_rate"},
	} {
		_, err := grids.Parse("g.toml", []byte("name = \"g\"\nscenario = \"testbed-s1\"\n"+tt.body))
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: %v; want a problem at %q", tt.body, err, tt.want)
		}
	}
}
