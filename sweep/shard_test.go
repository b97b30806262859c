package sweep_test

import (
	"strings"
	"testing"

	"github.com/ccsweep/ccsweep/sweep"
)

// TestParseShardAcceptsIOfN checks the valid spellings of --shard: "I/N"
// with 1 <= I <= N, spaces around either number allowed (sweep.ParseShard),
// spelt back as I/N, and "" for the whole grid, spelt "all"
// (ParseShardFlag, Shard.String); a part that is not a number is refused
// with the expected form.
func TestParseShardAcceptsIOfN(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want sweep.Shard
	}{
		{"3/8", sweep.Shard{Index: 3, Count: 8}},
		{"1/1", sweep.Shard{Index: 1, Count: 1}},
		{" 2 / 3 ", sweep.Shard{Index: 2, Count: 3}},
		{"8/8", sweep.Shard{Index: 8, Count: 8}},
	} {
		sh, err := sweep.ParseShard(tt.in)
		if err != nil || sh != tt.want {
			t.Errorf("ParseShard(%q) = %+v, %v; want %+v", tt.in, sh, err, tt.want)
		}
		if f, err := sweep.ParseShardFlag(tt.in); err != nil || f != tt.want {
			t.Errorf("ParseShardFlag(%q) = %+v, %v; want %+v", tt.in, f, err, tt.want)
		}
	}
	if s := (sweep.Shard{Index: 3, Count: 8}).String(); s != "3/8" {
		t.Errorf("String = %q, want 3/8", s)
	}
	if sh, err := sweep.ParseShardFlag(""); err != nil || sh != (sweep.Shard{}) || sh.String() != "all" {
		t.Errorf(`ParseShardFlag("") = %+v (%s), %v; want the whole grid, "all"`, sh, sh, err)
	}
	for _, bad := range []string{"x/3", "2/y", "2", "/3", "2/"} {
		if _, err := sweep.ParseShard(bad); err == nil || !strings.Contains(err.Error(), "want I/N") {
			t.Errorf("ParseShard(%q): %v; want an error asking for I/N", bad, err)
		}
	}
}
